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

/** A rendered feed: the body and its content type. Headers common to every format are added by the service. */
export type RenderedFeed = { body: string; contentType: string };
