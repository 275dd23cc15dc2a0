import fp from 'fastify-plugin';
import nodesRoutes from './nodes.routes.js';
import { createNodesService, type NodesService } from './nodes.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    nodes: NodesService;
  }
}

export default fp<{ now?: () => number }>(
  async (fastify, { now = Date.now }) => {
    fastify.decorate('nodes', createNodesService(fastify.db, fastify.store, now));
    await fastify.register(nodesRoutes);
  },
  { name: 'nodes', dependencies: ['db', 'store', 'auth'] },
);
