import { getCurrencies, getPlans } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { sendKeptAnswer } from '../../lib/kept-answer.js';
import { routeOf } from '../../lib/route.js';

export default async function catalogRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', fastify.authenticate);

  app.route({
    ...routeOf(getPlans),
    handler: async (request, reply) => {
      const plans = await fastify.catalog.plans(request.language);
      return sendKeptAnswer(reply, plans, request.language, () => ok(request, plans));
    },
  });

  app.route({
    ...routeOf(getCurrencies),
    handler: async (request, reply) => {
      const currencies = await fastify.catalog.currencies();
      return sendKeptAnswer(reply, currencies, request.language, () => ok(request, { currencies }));
    },
  });
}
