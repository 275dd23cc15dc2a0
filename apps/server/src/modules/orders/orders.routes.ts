import { cancelOrder, createOrder, getOrders } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';

/** Per-IP limit on placing orders: enough for a customer, not for a script filling the table. */
export const ORDER_CREATE_LIMIT = { max: 30, timeWindow: 60_000 };

export default async function ordersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', fastify.authenticate);

  app.route({
    ...routeOf(createOrder),
    config: { rateLimit: ORDER_CREATE_LIMIT },
    handler: async (request) => ok(request, { orderNo: await fastify.orders.create(request.user.id, request.body) }),
  });

  app.route({
    ...routeOf(getOrders),
    handler: async (request) =>
      ok(request, await fastify.orders.list(request.user.id, request.language, request.query.no)),
  });

  app.route({
    ...routeOf(cancelOrder),
    handler: async (request) => {
      await fastify.orders.cancel(request.user.id, request.query.no);
      return ok(request, null, 'ORDER_CANCELLED');
    },
  });
}
