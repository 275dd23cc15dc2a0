import { adminCreateApiToken, adminGetApiTokens, adminRevokeApiToken } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';

/** Owners' API tokens for scripts, under the console's path. */
export default async function tokensRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const owners = { onRequest: fastify.operatorCan('tokens.manage') };

  app.route({
    ...routeOf(adminGetApiTokens),
    ...owners,
    handler: async (request) => ok(request, { tokens: await fastify.operators.listApiTokens() }),
  });

  app.route({
    ...routeOf(adminCreateApiToken),
    ...owners,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const input = { ...request.body, createdBy: request.operator.id };
      return ok(request, await fastify.operators.createApiToken(input, request.audit));
    },
  });

  app.route({
    ...routeOf(adminRevokeApiToken),
    ...owners,
    handler: async (request) => {
      if (!(await fastify.operators.revokeApiToken(request.params.id, request.audit))) throw new AppError('NOT_FOUND');
      return ok(request, null);
    },
  });
}
