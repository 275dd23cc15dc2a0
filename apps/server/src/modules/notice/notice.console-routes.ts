import type { FastifyInstance } from 'fastify';

/** The console's notice routes, under ADMIN_PATH. */
export default async function noticeConsoleRoutes(_fastify: FastifyInstance) {}
