import {
  adminAddCustomerDays,
  adminAddCustomerTraffic,
  adminBanCustomer,
  adminGetCustomer,
  adminGetCustomers,
  adminResetCustomerSubscription,
  adminRevokeCustomerSession,
  adminUnbanCustomer,
} from '@mutenet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';
import { createCustomersService } from './customers.service.js';

/** The console's customers routes, under ADMIN_PATH. Each change answers the customer's page as it left it. */
export default async function customersConsoleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const customers = createCustomersService(fastify.db, {
    subscriptions: fastify.subscriptions,
    orders: fastify.orders,
  });
  /** The customer's page; it holds the subscription link, a credential: no cache keeps it. */
  const page = async (request: FastifyRequest, reply: FastifyReply, id: number) => {
    reply.header('cache-control', 'no-store');
    return ok(request, await customers.details(id));
  };

  app.route({
    ...routeOf(adminGetCustomers),
    onRequest: fastify.operatorCan('customers.read'),
    handler: async (request) => {
      const { search, banned, cursor, limit } = request.query;
      return ok(
        request,
        await customers.search({
          ...(search !== undefined ? { search } : {}),
          ...(banned ? { bannedOnly: true } : {}),
          ...(cursor !== undefined ? { beforeId: cursor } : {}),
          limit,
        }),
      );
    },
  });

  app.route({
    ...routeOf(adminGetCustomer),
    onRequest: fastify.operatorCan('customers.read'),
    handler: async (request, reply) => page(request, reply, request.params.id),
  });

  for (const [endpoint, banned] of [
    [adminBanCustomer, true],
    [adminUnbanCustomer, false],
  ] as const) {
    app.route({
      ...routeOf(endpoint),
      onRequest: fastify.operatorCan('customers.ban'),
      handler: async (request, reply) => {
        await customers.setBanned(request.params.id, banned, request.audit);
        return page(request, reply, request.params.id);
      },
    });
  }

  app.route({
    ...routeOf(adminAddCustomerDays),
    onRequest: fastify.operatorCan('customers.addDays'),
    handler: async (request, reply) => {
      await customers.addDays(request.params.id, request.body.days, request.audit);
      return page(request, reply, request.params.id);
    },
  });

  app.route({
    ...routeOf(adminAddCustomerTraffic),
    onRequest: fastify.operatorCan('customers.addTraffic'),
    handler: async (request, reply) => {
      await customers.addTraffic(request.params.id, request.body.gb, request.audit);
      return page(request, reply, request.params.id);
    },
  });

  app.route({
    ...routeOf(adminResetCustomerSubscription),
    onRequest: fastify.operatorCan('customers.resetSubscription'),
    handler: async (request, reply) => {
      await customers.resetSubscription(request.params.id, request.audit);
      return page(request, reply, request.params.id);
    },
  });

  app.route({
    ...routeOf(adminRevokeCustomerSession),
    onRequest: fastify.operatorCan('customers.revokeSession'),
    handler: async (request, reply) => {
      await customers.revokeSession(request.params.id, request.params.sessionId, request.audit);
      return page(request, reply, request.params.id);
    },
  });
}
