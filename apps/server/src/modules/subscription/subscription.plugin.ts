import fp from 'fastify-plugin';
import { createSubscriptionService, type SubscriptionService } from './subscription.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    subscriptions: SubscriptionService;
  }
}

export default fp<{ now?: () => number }>(
  async (fastify, { now = Date.now }) => {
    fastify.decorate('subscriptions', createSubscriptionService(fastify.db, now));
  },
  { name: 'subscription', dependencies: ['db'] },
);
