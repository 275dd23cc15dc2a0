import { getCurrencies, getPlans } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';

export default async function catalogRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', fastify.authenticate);

  app.route({
    ...routeOf(getPlans),
    handler: async (request) => ok(request, await fastify.catalog.plans(request.language)),
  });

  app.route({
    ...routeOf(getCurrencies),
    handler: async (request) => ok(request, { currencies: await fastify.catalog.currencies() }),
  });
}
