import type { RequestLanguage } from '@mutenet/contract';
import type { NodesService } from '../nodes/nodes.service.js';
import type { SubscriptionService } from '../subscription/subscription.service.js';
import type { FeedInput } from './feed-format.js';

/**
 * Resolves a subscription token into what the renderers take: the nodes the customer may use now (none once the
 * packages have expired or the allowance is used up) and the usage for the headers.
 */
export class FeedService {
  constructor(
    private readonly subscriptions: SubscriptionService,
    private readonly nodes: NodesService,
    private readonly title: string,
  ) {}

  /** The feed of a token, or undefined for an unknown, reset or banned one. */
  async input(token: string, language: RequestLanguage): Promise<FeedInput | undefined> {
    const subscriber = await this.subscriptions.subscriber(token);
    if (!subscriber) return undefined;
    const proxies = subscriber.usable ? await this.nodes.proxiesFor(subscriber.uuid, language) : [];
    return { proxies, usage: subscriber.usage, title: this.title };
  }
}
