import type { RequestLanguage } from '@mutenet/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../plugins/app/store.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { SubscriptionService } from '../subscription/subscription.service.js';
import type { CustomerFeed, FeedFormat, FeedInput, FeedRenderContext } from './feed-format.js';
import { FeedTemplates, feedInput, type TemplatedFeed } from './feed-templates.js';

/** Clients refresh every few hours; a scraper walking tokens from one address or hammering one link is stopped. */
export const FEED_IP_LIMIT = { max: 60, windowMs: 60_000 };
export const FEED_TOKEN_LIMIT = { max: 30, windowMs: 60_000 };

/** The feed of a customer whose packages have expired or whose allowance is used up. */
const NO_NODES: CustomerFeed['nodes'] = [];

/**
 * Resolves a subscription token into the customer's feed: the nodes the customer may use now (none once the packages
 * have expired or the allowance is used up) and the usage for the headers; and renders it.
 */
export class FeedService {
  readonly #templates = new FeedTemplates();

  constructor(
    private readonly subscriptions: SubscriptionService,
    private readonly nodes: NodesService,
    private readonly deps: { store: Store; log: FastifyBaseLogger; title: string },
  ) {}

  /**
   * Counts a fetch against its address's limit and then its link's, in the store every instance shares: the seconds
   * to wait when it is over one, else undefined. A fetch refused for its address does not count against the link.
   */
  async admit(ip: string, token: string): Promise<number | undefined> {
    if ((await this.#count(`feed-ip:${ip}`, FEED_IP_LIMIT.windowMs)) > FEED_IP_LIMIT.max) {
      return FEED_IP_LIMIT.windowMs / 1000;
    }
    if ((await this.#count(`feed-hits:${token}`, FEED_TOKEN_LIMIT.windowMs)) > FEED_TOKEN_LIMIT.max) {
      return FEED_TOKEN_LIMIT.windowMs / 1000;
    }
    return undefined;
  }

  /** A store that is away leaves the link served rather than refused, as the other per-address limits do. */
  #count(key: string, windowMs: number): Promise<number> {
    return this.deps.store.increment(key, windowMs).catch((error: Error) => {
      this.deps.log.warn({ err: { message: error.message } }, 'feed fetch not counted');
      return 0;
    });
  }

  /** The feed of a token, or undefined for an unknown, reset or banned one. */
  async find(token: string, language: RequestLanguage): Promise<CustomerFeed | undefined> {
    const subscriber = await this.subscriptions.subscriber(token);
    if (!subscriber) return undefined;
    const nodes = subscriber.usable ? await this.nodes.named(language) : NO_NODES;
    return { nodes, uuid: subscriber.uuid, usage: subscriber.usage, title: this.deps.title };
  }

  render(feed: CustomerFeed, format: FeedFormat, context: FeedRenderContext): TemplatedFeed {
    return this.#templates.render(feed, format, context);
  }

  /** The feed with every node resolved, as the browser page takes it. */
  input(feed: CustomerFeed): FeedInput {
    return feedInput(feed);
  }
}
