import fp from 'fastify-plugin';
import subscriptionRoutes from './subscription.routes.js';
import { createSubscriptionService, type SubscriptionService } from './subscription.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    subscriptions: SubscriptionService;
  }
}

export default fp<{ now?: () => number; publicUrl: string }>(
  async (fastify, { now = Date.now, publicUrl }) => {
    fastify.decorate(
      'subscriptions',
      createSubscriptionService({ db: fastify.db, store: fastify.store, publicUrl, now }),
    );
    await fastify.register(subscriptionRoutes);
  },
  { name: 'subscription', dependencies: ['db', 'store', 'auth'] },
);
