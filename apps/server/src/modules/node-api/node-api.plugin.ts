import fp from 'fastify-plugin';
import { NodeApiRepository } from './node-api.repository.js';
import nodeApiRoutes from './node-api.routes.js';
import { NodeApiService } from './node-api.service.js';
import { UserListCache } from './user-list.js';

declare module 'fastify' {
  interface FastifyInstance {
    nodeApi: NodeApiService;
  }
}

/** The agents' API, compatible with V2Board/Xboard's UniProxy, so that unmodified V2bX and XrayR work against it. */
export default fp<{ now?: () => number }>(
  async (fastify, { now = Date.now }) => {
    const { nodes, subscriptions, store, db } = fastify;
    const users = new UserListCache(subscriptions, now);
    fastify.decorate(
      'nodeApi',
      new NodeApiService({ nodes, subscriptions, repository: new NodeApiRepository(db), store, users, now }),
    );
    await fastify.register(nodeApiRoutes);
  },
  { name: 'node-api', dependencies: ['db', 'store', 'nodes', 'subscription', 'errors'] },
);
