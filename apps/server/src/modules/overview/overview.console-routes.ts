import { adminGetOverview } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';
import { OverviewService } from './overview.service.js';

/** The console's overview routes, under ADMIN_PATH. */
export default async function overviewConsoleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const overview = new OverviewService({
    orders: fastify.orders,
    auth: fastify.auth,
    subscriptions: fastify.subscriptions,
    nodes: fastify.nodes,
    nodeApi: fastify.nodeApi,
  });
  app.route({
    ...routeOf(adminGetOverview),
    onRequest: fastify.operatorCan('overview.read'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(request, await overview.overview(request.language));
    },
  });
}
