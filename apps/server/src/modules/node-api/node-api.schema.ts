import { z } from 'zod';
import { MAX_BYTES, type PushedTraffic, ReadPush } from './push-body.js';

/** The query every agent call carries. The token may also come as `X-API-Key`, as newer agents send it. */
export type NodeQuery = { nodeId: number; token?: string; nodeType?: string };

const NODE_ID = /^\d{1,9}$/;
const isOptionalText = (value: unknown, maxLength: number) =>
  value === undefined || (typeof value === 'string' && value.length <= maxLength);

/**
 * The node query of a call, or undefined when it is not one. Read by hand, not by a zod object: every node's pulls
 * come here, and once Fastify had checked request bodies with zod (the login form's), a zod object here made some
 * 270 KB of the pulls' garbage outlive each scavenge into the old generation, and the scavenges took more than
 * twice as long (bench/RESULTS.md, "Twenty-ninth round").
 */
export function readNodeQuery(query: unknown): NodeQuery | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  const { node_id: nodeId, token, node_type: nodeType } = query as Record<string, unknown>;
  if (typeof nodeId !== 'string' || !NODE_ID.test(nodeId)) return undefined;
  if (!isOptionalText(token, 256) || !isOptionalText(nodeType, 32)) return undefined;
  return { nodeId: Number(nodeId), token: token as string | undefined, nodeType: nodeType as string | undefined };
}

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
