import type { RequestLanguage } from '@mutenet/contract';
import { type NodesService, resolveProxy } from '../nodes/nodes.service.js';
import type { SubscriptionService } from '../subscription/subscription.service.js';
import type { FeedInput } from './feed-format.js';
import { renderFeedPage } from './html-page.js';
import { FEED_FORMATS, feedFilename, feedHeaders } from './registry.js';
import { chooseFormat, isBrowserRequest, parseSingBoxVersion } from './user-agent.js';

/** How often clients should refresh the feed, in hours. */
export const UPDATE_INTERVAL_HOURS = 12;

/** What the feed is told of a fetch of a subscription link. */
export type FeedRequest = {
  token: string;
  /** `?flag=`, which names a format and wins over the User-Agent. */
  flag?: string | undefined;
  userAgent?: string | undefined;
  accept?: string | undefined;
  language: RequestLanguage;
  /** The path and query the link was fetched at, shown back to a browser as the link to copy. */
  url: string;
};

/** What the link answers: sent as it is. */
export type FeedAnswer = { status: 200 | 404; headers: Record<string, string>; body: string };

/** An unknown or reset token says nothing about why. */
const NOT_FOUND: FeedAnswer = {
  status: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: 'Not found',
};

/**
 * Answers a subscription link: the customer's nodes (none once the packages have expired or the allowance is used up)
 * in the format their client app reads, with the usage headers clients show; a page explaining the link to a browser.
 */
export class FeedService {
  constructor(
    private readonly subscriptions: SubscriptionService,
    private readonly nodes: NodesService,
    private readonly deps: { title: string; publicUrl: string },
  ) {}

  async answer(request: FeedRequest): Promise<FeedAnswer> {
    const input = await this.#input(request.token, request.language);
    if (!input) return NOT_FOUND;
    if (isBrowserRequest(request)) {
      const link = `${this.deps.publicUrl}${request.url}`;
      const page = renderFeedPage(input, { language: request.language, link });
      return {
        status: 200,
        headers: { 'cache-control': 'no-store', 'content-type': page.contentType },
        body: page.body,
      };
    }
    const format = chooseFormat(request.flag, request.userAgent);
    const { body, contentType } = FEED_FORMATS[format].render(input, {
      singBoxVersion: parseSingBoxVersion(request.userAgent),
    });
    const filename = feedFilename(input.title, format);
    const headers = feedHeaders(input, { filename, updateIntervalHours: UPDATE_INTERVAL_HOURS });
    return { status: 200, headers: { ...headers, 'cache-control': 'no-store', 'content-type': contentType }, body };
  }

  /** The feed of a token with every node resolved for its customer, or undefined for an unknown, reset or banned one. */
  async #input(token: string, language: RequestLanguage): Promise<FeedInput | undefined> {
    const subscriber = await this.subscriptions.subscriber(token);
    if (!subscriber) return undefined;
    const nodes = subscriber.usable ? await this.nodes.named(language) : [];
    const proxies = nodes.map((node) => resolveProxy(node, subscriber.uuid));
    return { proxies, usage: subscriber.usage, title: this.deps.title };
  }
}
