import type { RequestLanguage } from '@mutenet/contract';
import type { FastifyBaseLogger } from 'fastify';
import { CountedLimit, type Limit } from '../../lib/counted-limit.js';
import { type MaybePromise, thenMaybe } from '../../lib/maybe-promise.js';
import type { Store } from '../../plugins/app/store.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { SubscriptionService } from '../subscription/subscription.service.js';
import type { CustomerFeed, FeedFormat, FeedInput, FeedRenderContext } from './feed-format.js';
import { FeedTemplates, feedInput, type TemplatedFeed } from './feed-templates.js';

/** Clients refresh every few hours; a scraper walking tokens from one address or hammering one link is stopped. */
export const FEED_IP_LIMIT: Limit = { max: 60, timeWindow: 60_000 };
export const FEED_TOKEN_LIMIT: Limit = { max: 30, timeWindow: 60_000 };

/** The feed of a customer whose packages have expired or whose allowance is used up. */
const NO_NODES: CustomerFeed['nodes'] = [];

/**
 * Resolves a subscription token into the customer's feed: the nodes the customer may use now (none once the packages
 * have expired or the allowance is used up) and the usage for the headers; and renders it.
 */
export class FeedService {
  readonly #templates = new FeedTemplates();
  readonly #byAddress: CountedLimit;
  readonly #byLink: CountedLimit;

  constructor(
    private readonly subscriptions: SubscriptionService,
    private readonly nodes: NodesService,
    private readonly deps: { store: Store; log: FastifyBaseLogger; title: string },
  ) {
    this.#byAddress = new CountedLimit(deps.store, deps.log, 'feed-ip', FEED_IP_LIMIT);
    this.#byLink = new CountedLimit(deps.store, deps.log, 'feed-hits', FEED_TOKEN_LIMIT);
  }

  /**
   * Counts a fetch against its address's limit and then its link's: the seconds to wait when it is over one, else
   * undefined. A fetch refused for its address does not count against the link. At once from the embedded store, as
   * `find` is for a customer kept in memory: a fetch of a link fetched before then makes no promise at all.
   */
  admit(ip: string, token: string): MaybePromise<number | undefined> {
    return thenMaybe(this.#byAddress.count(ip), (wait) => wait ?? this.#byLink.count(token));
  }

  /** The feed of a token, or undefined for an unknown, reset or banned one. */
  find(token: string, language: RequestLanguage): MaybePromise<CustomerFeed | undefined> {
    return thenMaybe(this.subscriptions.subscriber(token), (subscriber) => {
      if (!subscriber) return undefined;
      const feedOf = (nodes: CustomerFeed['nodes']): CustomerFeed => ({
        nodes,
        uuid: subscriber.uuid,
        usage: subscriber.usage,
        title: this.deps.title,
      });
      return subscriber.usable ? thenMaybe(this.nodes.named(language), feedOf) : feedOf(NO_NODES);
    });
  }

  render(feed: CustomerFeed, format: FeedFormat, context: FeedRenderContext): TemplatedFeed {
    return this.#templates.render(feed, format, context);
  }

  /** The feed with every node resolved, as the browser page takes it. */
  input(feed: CustomerFeed): FeedInput {
    return feedInput(feed);
  }
}
