import type { FastifyInstance } from 'fastify';

/** The console's orders routes, under ADMIN_PATH. */
export default async function ordersConsoleRoutes(_fastify: FastifyInstance) {}
