import * as z from 'zod/mini';

/** One of the customer's packages: the running one first, then the queued ones. */
export const PackageStatSchema = z.object({
  pdName: z.string(),
  /** Epoch seconds. */
  startAt: z.int(),
  /** Epoch seconds. */
  endAt: z.int(),
  /** Bytes allowed in the current period (a durational package's allowance renews every 30 days). */
  trafficTotal: z.int(),
  trafficUsed: z.int(),
  /** 0 to 100, two decimals. */
  trafficUsedPct: z.number(),
});
export type PackageStat = z.infer<typeof PackageStatSchema>;

/** The subscription link's path: `{PUBLIC_URL}/sub/{token}`. */
export const SUBSCRIPTION_PATH_PREFIX = '/sub';
/** A subscription link's token: an HMAC-SHA-256 in base64url, 43 characters. */
export const SUBSCRIPTION_TOKEN_PATTERN = /^[\w-]{43}$/;
