import type { FastifyInstance } from 'fastify';

/** The console's nodes routes, under ADMIN_PATH. */
export default async function nodesConsoleRoutes(_fastify: FastifyInstance) {}
