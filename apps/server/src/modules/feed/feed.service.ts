import type { RequestLanguage } from '@mutenet/contract';
import type { NodesService } from '../nodes/nodes.service.js';
import type { SubscriptionService } from '../subscription/subscription.service.js';
import type { CustomerFeed, FeedFormat, FeedInput, FeedRenderContext } from './feed-format.js';
import { FeedTemplates, feedInput, type TemplatedFeed } from './feed-templates.js';

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
    private readonly title: string,
  ) {}

  /** The feed of a token, or undefined for an unknown, reset or banned one. */
  async find(token: string, language: RequestLanguage): Promise<CustomerFeed | undefined> {
    const subscriber = await this.subscriptions.subscriber(token);
    if (!subscriber) return undefined;
    const nodes = subscriber.usable ? await this.nodes.named(language) : NO_NODES;
    return { nodes, uuid: subscriber.uuid, usage: subscriber.usage, title: this.title };
  }

  render(feed: CustomerFeed, format: FeedFormat, context: FeedRenderContext): TemplatedFeed {
    return this.#templates.render(feed, format, context);
  }

  /** The feed with every node resolved, as the browser page takes it. */
  input(feed: CustomerFeed): FeedInput {
    return feedInput(feed);
  }
}
