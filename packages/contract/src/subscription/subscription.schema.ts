import { z } from 'zod';

/** One of the customer's packages: the running one first, then the queued ones. */
export const PackageStatSchema = z.object({
  pdName: z.string(),
  /** Epoch seconds. */
  startAt: z.number().int(),
  /** Epoch seconds. */
  endAt: z.number().int(),
  /** Bytes allowed in the current period (a durational package's allowance renews every 30 days). */
  trafficTotal: z.number().int(),
  trafficUsed: z.number().int(),
  /** 0 to 100, two decimals. */
  trafficUsedPct: z.number(),
});
export type PackageStat = z.infer<typeof PackageStatSchema>;

/** The subscription link's path: `{PUBLIC_URL}/sub/{token}`. */
export const SUBSCRIPTION_PATH_PREFIX = '/sub';
