import { z } from 'zod';
import { MAX_BYTES, type PushedTraffic, ReadPush } from './push-body.js';

/** The query every agent call carries. The token may also come as `X-API-Key`, as newer agents send it. */
export const NodeQuerySchema = z.object({
  token: z.string().max(256).optional(),
  node_id: z.string().regex(/^\d{1,9}$/),
  node_type: z.string().max(32).optional(),
});

/**
 * A user id as agents write it, without leading zeros: "01" and "1" in one push would be one user twice, and an
 * update counts one row per package, so one of the two amounts would be lost.
 */
const USER_ID = /^(?:0|[1-9]\d{0,9})$/;
const UserId = z.string().regex(USER_ID);

const isBytes = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_BYTES;

/**
 * `{"<uid>": [upload, download]}` in bytes, as V2bX and XrayR push it, read into one entry per user. A body in the
 * common form arrives already read from its text (`readPushBody`); any other is checked and read here, in one loop (a
 * zod record of tuples spent 5 ms on a 10,000-user push, a sixth of its time).
 */
export const PushBodySchema = z.unknown().transform((body, context): PushedTraffic[] => {
  if (body instanceof ReadPush) return body.entries;
  const refuse = () => {
    context.addIssue({ code: 'custom', message: 'expected {"<user id>": [upload bytes, download bytes], …}' });
    return z.NEVER;
  };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse();
  const pushed: PushedTraffic[] = [];
  for (const userId in body) {
    const pair: unknown = (body as Record<string, unknown>)[userId];
    if (!USER_ID.test(userId) || !Array.isArray(pair) || pair.length !== 2) return refuse();
    const [upload, download] = pair as unknown[];
    if (!isBytes(upload) || !isBytes(download)) return refuse();
    pushed.push({ userId: Number(userId), upload: upload as number, download: download as number });
  }
  return pushed;
});

/** `{"<uid>": ["ip", …]}`: who is online on the node. */
export const AliveBodySchema = z.record(UserId, z.array(z.string().max(64)).max(1024));

/** One push or alive report may name this many users at most. */
export const MAX_USERS_PER_REPORT = 200_000;
