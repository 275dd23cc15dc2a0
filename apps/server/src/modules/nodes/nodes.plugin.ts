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
    const service = createNodesService(fastify.db, fastify.store, now);
    fastify.decorate('nodes', service);
    fastify.metrics.gauge('mutenet_nodes_online', 'Visible nodes whose agent called within the online window.', () =>
      service.onlineCount(),
    );
    await fastify.register(nodesRoutes);
  },
  { name: 'nodes', dependencies: ['db', 'store', 'auth', 'metrics'] },
);
