import fp from 'fastify-plugin';
import { SubscriptionRepository } from './subscription.repository.js';
import { SubscriptionService } from './subscription.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    subscriptions: SubscriptionService;
  }
}

export default fp<{ now?: () => number }>(
  async (fastify, { now = Date.now }) => {
    fastify.decorate('subscriptions', new SubscriptionService(new SubscriptionRepository(fastify.db), now));
  },
  { name: 'subscription', dependencies: ['db'] },
);
