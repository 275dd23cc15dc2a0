import fp from 'fastify-plugin';
import ordersRoutes from './orders.routes.js';
import { createOrdersService, type OrdersService } from './orders.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    orders: OrdersService;
  }
}

/** How often unpaid orders past due are timed out: within 10 seconds of falling due, as promised. */
export const ORDER_TIMEOUT_JOB_MS = 5000;

export type OrdersOptions = { now?: () => number; timeoutMs: number };

export default fp<OrdersOptions>(
  async (fastify, { now = Date.now, timeoutMs }) => {
    const service = createOrdersService(fastify.db, {
      catalog: fastify.catalog,
      subscriptions: fastify.subscriptions,
      now,
      timeoutMs,
    });
    fastify.decorate('orders', service);
    fastify.metrics.gauge(
      'mutenet_orders',
      'Orders by stored status.',
      async () =>
        Object.entries(await service.countByStatus()).map(([status, value]) => ({ labels: { status }, value })),
      ['status'],
    );
    fastify.jobs.every('order-timeout', ORDER_TIMEOUT_JOB_MS, () => service.timeOutDue());
    await fastify.register(ordersRoutes);
  },
  { name: 'orders', dependencies: ['db', 'auth', 'catalog', 'subscription', 'jobs', 'metrics'] },
);
