import {
  type AdminPermission,
  adminAddCustomerDays,
  adminAddCustomerTraffic,
  adminBanCustomer,
  adminGetCustomer,
  adminGetCustomers,
  adminResetCustomerSubscription,
  adminRevokeCustomerSession,
  adminUnbanCustomer,
  type Endpoint,
} from '@mutenet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod/mini';
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

  /**
   * A change an operator makes to a customer (audited by the service), answered with the customer's page as the change
   * left it. `act` gets the request as the endpoint's schemas validated it.
   */
  const change = <const E extends Endpoint & { params: z.ZodMiniType<{ id: number }> }>(
    endpoint: E,
    permission: AdminPermission,
    act: (request: FastifyRequest<Validated<E>>) => Promise<unknown>,
  ) =>
    fastify.route<Validated<E>>({
      ...routeOf(endpoint),
      onRequest: fastify.operatorCan(permission),
      handler: async (request, reply) => {
        await act(request);
        // E's params hold the customer's id (its constraint); the generic request cannot show it.
        const { id } = request.params as { id: number };
        return page(request, reply, id);
      },
    });

  change(adminBanCustomer, 'customers.ban', ({ params, audit }) => customers.setBanned(params.id, true, audit));
  change(adminUnbanCustomer, 'customers.ban', ({ params, audit }) => customers.setBanned(params.id, false, audit));
  change(adminAddCustomerDays, 'customers.addDays', ({ params, body, audit }) =>
    customers.addDays(params.id, body.days, audit),
  );
  change(adminAddCustomerTraffic, 'customers.addTraffic', ({ params, body, audit }) =>
    customers.addTraffic(params.id, body.gb, audit),
  );
  change(adminResetCustomerSubscription, 'customers.resetSubscription', ({ params, audit }) =>
    customers.resetSubscription(params.id, audit),
  );
  change(adminRevokeCustomerSession, 'customers.revokeSession', ({ params, audit }) =>
    customers.revokeSession(params.id, params.sessionId, audit),
  );
}

/**
 * The request of a change route as its endpoint's schemas validated it (the type provider cannot resolve the types of
 * an endpoint that is generic, so the change routes name them).
 */
type Validated<E extends Endpoint> = {
  Params: z.output<NonNullable<E['params']>>;
  Body: E['body'] extends z.ZodMiniType ? z.output<E['body']> : undefined;
};
