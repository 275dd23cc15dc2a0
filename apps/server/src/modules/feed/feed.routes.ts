import { SUBSCRIPTION_PATH_PREFIX } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import type { FeedService } from './feed.service.js';

/** Clients refresh every few hours; a scraper walking tokens from one address or hammering one link is stopped. */
export const FEED_IP_LIMIT = { max: 60, timeWindow: 60_000 };
export const FEED_TOKEN_LIMIT = { max: 30, timeWindow: 60_000 };

export default async function feedRoutes(fastify: FastifyInstance, { feed }: { feed: FeedService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const params = z.object({ token: z.string().max(128) });
  // Counted in the same store as the per-IP limits, keyed by the link: from any address, on any instance.
  const linkLimit = fastify.createRateLimit({
    ...FEED_TOKEN_LIMIT,
    keyGenerator: (request) => `feed-link:${(request.params as z.infer<typeof params>).token}`,
  });

  app.get(`${SUBSCRIPTION_PATH_PREFIX}/:token`, {
    schema: { params, querystring: z.object({ flag: z.string().max(32).optional() }).loose() },
    config: { rateLimit: FEED_IP_LIMIT },
    handler: async (request, reply) => {
      // After the address's limit: a fetch refused for its address does not count against the link.
      const link = await linkLimit(request);
      if (!link.isAllowed && link.isExceeded) throw new AppError('TOO_MANY_REQUESTS', null, link.ttlInSeconds);
      const { status, headers, body } = await feed.answer({
        token: request.params.token,
        flag: request.query.flag,
        userAgent: request.headers['user-agent'],
        accept: request.headers.accept,
        language: request.language,
        url: request.url,
      });
      return reply.code(status).headers(headers).send(body);
    },
  });
}
