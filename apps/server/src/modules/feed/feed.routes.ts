import type { IncomingHttpHeaders } from 'node:http';
import {
  type RequestLanguage,
  requestLanguageOf,
  SUBSCRIPTION_PATH_PREFIX,
  SUBSCRIPTION_TOKEN_PATTERN,
} from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { GZIPPED_HEADERS, gzippedFromParts } from '../../lib/compression.js';
import { type Answer, goesAsIs, oncePerRequest } from '../../lib/early-answers.js';
import { thenMaybe } from '../../lib/maybe-promise.js';
import type { FeedService } from './feed.service.js';
import type { CustomerFeed } from './feed-format.js';
import { renderFeedPage } from './html-page.js';
import { feedFilename, feedHeaders } from './registry.js';
import { chooseFormat, isBrowserRequest, parseSingBoxVersion } from './user-agent.js';

/** How often clients should refresh the feed, in hours. */
export const UPDATE_INTERVAL_HOURS = 12;
const MAX_FLAG_LENGTH = 32;

/** What a client app is sent: its customer's feed in the format it reads, gzipped from kept parts if it takes gzip. */
function feedAnswer(
  feed: FeedService,
  customer: CustomerFeed,
  flag: string | undefined,
  headers: IncomingHttpHeaders,
): Answer {
  const userAgent = headers['user-agent'];
  const format = chooseFormat(flag, userAgent);
  const rendered = feed.render(customer, format, { singBoxVersion: parseSingBoxVersion(userAgent) });
  const filename = feedFilename(customer.title, format);
  const own = feedHeaders(customer, { filename, updateIntervalHours: UPDATE_INTERVAL_HOURS });
  own['cache-control'] = 'no-store';
  own['content-type'] = rendered.contentType;
  const gzipped = gzippedFromParts(headers['accept-encoding'], rendered.length, rendered.gzipped);
  if (!gzipped) return { status: 200, headers: own, body: rendered.body() };
  return { status: 200, headers: Object.assign(own, GZIPPED_HEADERS), body: gzipped };
}

export default async function feedRoutes(fastify: FastifyInstance, { feed }: { feed: FeedService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // Counted and looked up once, by whichever of the early answer and the route comes to it first: a fetch the early
  // answer leaves to the route (an unknown link, a browser, a refusal) is the same request.
  const admit = oncePerRequest((ip: string | undefined, token: string) => feed.admit(ip ?? '', token));
  const find = oncePerRequest((token: string, language: RequestLanguage) => feed.find(token, language));

  app.get(`${SUBSCRIPTION_PATH_PREFIX}/:token`, {
    schema: {
      params: z.object({ token: z.string().max(128) }),
      querystring: z.object({ flag: z.string().max(MAX_FLAG_LENGTH).optional() }).loose(),
    },
    handler: async (request, reply) => {
      const { token } = request.params;
      const waitSeconds = await admit(request.raw, request.ip, token);
      if (waitSeconds) throw new AppError('TOO_MANY_REQUESTS', null, waitSeconds);
      const customer = await find(request.raw, token, request.language);
      // An unknown or reset token says nothing about why.
      if (!customer) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');

      const { flag } = request.query;
      if (isBrowserRequest({ flag, userAgent: request.headers['user-agent'], accept: request.headers.accept })) {
        const link = `${fastify.publicUrl}${request.url}`;
        const page = renderFeedPage(feed.input(customer), { language: request.language, link });
        return reply.header('cache-control', 'no-store').type(page.contentType).send(page.body);
      }
      const { status, headers, body } = feedAnswer(feed, customer, flag, request.headers);
      return reply.code(status).headers(headers).send(body);
    },
  });

  // Every client app fetches its link every few hours, and a burst of them (a restart, a new node) is the panel's
  // busiest call: a fetch whose answer goes as it is, to a link of the token's shape (which the route takes as it
  // is), is answered before Fastify routes it (lib/early-answers.ts). Everything else goes on to the route.
  fastify.earlyAnswers.addUnder(
    SUBSCRIPTION_PATH_PREFIX,
    `${SUBSCRIPTION_PATH_PREFIX}/:token`,
    // Answered at once when the limits' store and the customer are in memory (lib/maybe-promise.ts).
    ({ raw, path, query, ip }) => {
      const token = path.slice(SUBSCRIPTION_PATH_PREFIX.length + 1);
      const { flag } = query;
      if (!SUBSCRIPTION_TOKEN_PATTERN.test(token)) return undefined;
      if (flag !== undefined && (typeof flag !== 'string' || flag.length > MAX_FLAG_LENGTH)) return undefined;
      return thenMaybe(admit(raw, ip(), token), (waitSeconds) => {
        if (waitSeconds) return undefined;
        return thenMaybe(find(raw, token, requestLanguageOf(raw.headers['accept-language'])), (customer) => {
          const { 'user-agent': userAgent, accept } = raw.headers;
          if (!customer || isBrowserRequest({ flag, userAgent, accept })) return undefined;
          const answer = feedAnswer(feed, customer, flag, raw.headers);
          return goesAsIs(answer) ? answer : undefined;
        });
      });
    },
  );
}
