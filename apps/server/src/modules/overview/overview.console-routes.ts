import type { FastifyInstance } from 'fastify';

/** The console's overview routes, under ADMIN_PATH. */
export default async function overviewConsoleRoutes(_fastify: FastifyInstance) {}
