import { z } from 'zod';

/** The query every agent call carries. The token may also come as `X-API-Key`, as newer agents send it. */
export type NodeQuery = { nodeId: number; token?: string; nodeType?: string };

const NodeQuerySchema = z.object({
  node_id: z.string().regex(/^\d{1,9}$/),
  token: z.string().max(256).optional(),
  node_type: z.string().max(32).optional(),
});

/** The node query of a call, or undefined when it is not one. */
export function readNodeQuery(query: unknown): NodeQuery | undefined {
  const read = NodeQuerySchema.safeParse(query);
  if (!read.success) return undefined;
  const { node_id: nodeId, token, node_type: nodeType } = read.data;
  return {
    nodeId: Number(nodeId),
    ...(token !== undefined ? { token } : {}),
    ...(nodeType !== undefined ? { nodeType } : {}),
  };
}

/** The most bytes one user may be pushed at once: 1 PiB, far beyond a minute of any link, and exact in a double. */
const MAX_BYTES = 2 ** 50;
const Bytes = z.number().int().min(0).max(MAX_BYTES);

/**
 * A user id as agents write it, without leading zeros: "01" and "1" in one push would be one user twice, and an
 * update counts one row per package, so one of the two amounts would be lost.
 */
const UserId = z.string().regex(/^(?:0|[1-9]\d{0,9})$/);

/** One user's pushed bytes, as the push's body gives them (before the node's rate). */
export type PushedTraffic = { userId: number; upload: number; download: number };

/** `{"<uid>": [upload, download]}` in bytes, as V2bX and XrayR push it, read into one entry per user. */
export const PushBodySchema = z
  .record(UserId, z.tuple([Bytes, Bytes]))
  .transform((body): PushedTraffic[] =>
    Object.entries(body).map(([userId, [upload, download]]) => ({ userId: Number(userId), upload, download })),
  );

/** `{"<uid>": ["ip", …]}`: who is online on the node. */
export const AliveBodySchema = z.record(UserId, z.array(z.string().max(64)).max(1024));

/** One push or alive report may name this many users at most. */
export const MAX_USERS_PER_REPORT = 200_000;
