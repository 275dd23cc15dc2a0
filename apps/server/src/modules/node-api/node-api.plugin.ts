import fp from 'fastify-plugin';
import nodeApiRoutes from './node-api.routes.js';
import { UserListCache } from './user-list.js';

/** The agents' API, compatible with V2Board/Xboard's UniProxy, so that unmodified V2bX and XrayR work against it. */
export default fp<{ now?: () => number }>(
  async (fastify, { now = Date.now }) => {
    await fastify.register(nodeApiRoutes, { users: new UserListCache(fastify.subscriptions, now) });
  },
  { name: 'node-api', dependencies: ['nodes', 'subscription', 'errors'] },
);
