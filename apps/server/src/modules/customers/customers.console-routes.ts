import type { FastifyInstance } from 'fastify';

/** The console's customers routes, under ADMIN_PATH. */
export default async function customersConsoleRoutes(_fastify: FastifyInstance) {}
