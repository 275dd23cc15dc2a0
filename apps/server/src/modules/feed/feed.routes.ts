import { SUBSCRIPTION_PATH_PREFIX } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { gzippedFromParts } from '../../lib/compression.js';
import type { FeedService } from './feed.service.js';
import { renderFeedPage } from './html-page.js';
import { feedFilename, feedHeaders } from './registry.js';
import { chooseFormat, isBrowserRequest, parseSingBoxVersion } from './user-agent.js';

/** Clients refresh every few hours; a scraper walking tokens or hammering one link is stopped. */
export const FEED_IP_LIMIT = { max: 60, timeWindow: 60_000 };
export const FEED_TOKEN_LIMIT = { max: 30, windowMs: 60_000 };
/** How often clients should refresh the feed, in hours. */
export const UPDATE_INTERVAL_HOURS = 12;

export default async function feedRoutes(fastify: FastifyInstance, { feed }: { feed: FeedService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(`${SUBSCRIPTION_PATH_PREFIX}/:token`, {
    schema: {
      params: z.object({ token: z.string().max(128) }),
      querystring: z.object({ flag: z.string().max(32).optional() }).loose(),
    },
    config: { rateLimit: FEED_IP_LIMIT },
    handler: async (request, reply) => {
      const { token } = request.params;
      // As with the per-IP limits, a store that is away leaves the link served rather than refused.
      const hits = await fastify.store
        .increment(`feed-hits:${token}`, FEED_TOKEN_LIMIT.windowMs)
        .catch((error: Error) => {
          request.log.warn({ err: { message: error.message } }, 'feed fetch not counted');
          return 0;
        });
      if (hits > FEED_TOKEN_LIMIT.max) throw new AppError('TOO_MANY_REQUESTS', null, FEED_TOKEN_LIMIT.windowMs / 1000);
      const customer = await feed.find(token, request.language);
      // An unknown or reset token says nothing about why.
      if (!customer) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');

      const { flag } = request.query;
      const userAgent = request.headers['user-agent'];
      reply.header('cache-control', 'no-store');
      if (isBrowserRequest({ flag, userAgent, accept: request.headers.accept })) {
        const link = `${fastify.publicUrl}${request.url}`;
        const page = renderFeedPage(feed.input(customer), { language: request.language, link });
        return reply.type(page.contentType).send(page.body);
      }
      const format = chooseFormat(flag, userAgent);
      const rendered = feed.render(customer, format, { singBoxVersion: parseSingBoxVersion(userAgent) });
      const filename = feedFilename(customer.title, format);
      reply.headers(feedHeaders(customer, { filename, updateIntervalHours: UPDATE_INTERVAL_HOURS }));
      const body = gzippedFromParts(reply, rendered.body, rendered.gzip);
      return reply.type(rendered.contentType).send(body);
    },
  });
}
