import type { NamedNode } from '../nodes/nodes.service.js';
import type { ResolvedProxy } from '../nodes/proxy.model.js';

/** The feed formats the panel renders, and what a renderer may know of the request. */
export const FEED_FORMAT_NAMES = ['share-links', 'clash', 'sing-box'] as const;
/**
 * `share-links`: a base64 list of share links (v2rayN and the clients that read its format);
 * `clash`: a Clash Meta (mihomo) profile; `sing-box`: a sing-box configuration.
 */
export type FeedFormat = (typeof FEED_FORMAT_NAMES)[number];

/** The client's sing-box core version, when its User-Agent tells it. */
export type SingBoxVersion = { major: number; minor: number };

/** What a renderer may know of the request besides the feed itself. */
export type FeedRenderContext = { singBoxVersion?: SingBoxVersion | undefined };

/** The customer's usage, for the `subscription-userinfo` header and the browser page. */
export type FeedUsage = {
  upload: number;
  download: number;
  total: number;
  /** Epoch seconds, 0 when there is none. */
  expire: number;
};

export type FeedInput = {
  proxies: ResolvedProxy[];
  usage: FeedUsage;
  /** The service's name, shown by clients as the profile title. */
  title: string;
};

/** A customer's feed before it is rendered: the nodes they may use, and their UUID to resolve them with. */
export type CustomerFeed = {
  /** `NodesService.named`'s array: the same for every customer until the node list reloads. */
  nodes: readonly NamedNode[];
  uuid: string;
  usage: FeedUsage;
  title: string;
};

/** A rendered feed: the body and its content type. Headers common to every format are added by the route. */
export type RenderedFeed = { body: string; contentType: string };

/**
 * How a body is made of its parts (a format's one part per node, or a whole render as one part): joined by the
 * separator, the whole then encoded if the format says so (share links: standard base64 of the UTF-8 text). Data
 * rather than a function, so that the feed's templates can make the same body from bytes.
 */
export type PartsJoin = { separator: string; encoding?: 'base64' | undefined; contentType: string };

export function joinParts({ separator, encoding, contentType }: PartsJoin, parts: readonly string[]): RenderedFeed {
  const text = parts.join(separator);
  return { body: encoding ? Buffer.from(text, 'utf8').toString(encoding) : text, contentType };
}
