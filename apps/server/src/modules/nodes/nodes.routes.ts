import { getNodes } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';

export default async function nodesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', fastify.authenticate);
  app.route({
    ...routeOf(getNodes),
    handler: async (request) => ok(request, await fastify.nodes.customerList(request.language)),
  });
}
