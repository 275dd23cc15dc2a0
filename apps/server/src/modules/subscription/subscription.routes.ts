import { getPackageStat, getSubscribeUrl, resetSubscribeUrl } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';

/** Resetting mints a new link and credential: a few times an hour is plenty for a customer. */
export const RESET_LIMIT = { max: 10, timeWindow: 60 * 60_000 };

export default async function subscriptionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', fastify.authenticate);

  app.route({
    ...routeOf(getPackageStat),
    handler: async (request) => ok(request, await fastify.subscriptions.stat(request.user.id, request.language)),
  });

  // The body is the link itself, as text, not an envelope.
  app.route({
    method: getSubscribeUrl.method,
    url: getSubscribeUrl.path,
    handler: async (request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(await fastify.subscriptions.link(request.user.id)),
  });

  app.route({
    ...routeOf(resetSubscribeUrl),
    config: { rateLimit: RESET_LIMIT },
    handler: async (request) => {
      await fastify.subscriptions.reset(request.user.id);
      return ok(request, null, 'SUBSCRIPTION_RESET');
    },
  });
}
