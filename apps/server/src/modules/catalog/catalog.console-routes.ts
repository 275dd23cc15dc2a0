import type { FastifyInstance } from 'fastify';

/** The console's catalog routes, under ADMIN_PATH. */
export default async function catalogConsoleRoutes(_fastify: FastifyInstance) {}
