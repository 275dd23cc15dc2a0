import { z } from 'zod';

/** The query every agent call carries. The token may also come as `X-API-Key`, as newer agents send it. */
export const NodeQuerySchema = z.object({
  token: z.string().max(256).optional(),
  node_id: z.string().regex(/^\d{1,9}$/),
  node_type: z.string().max(32).optional(),
});

const MAX_BYTES = 2 ** 50;
const UserId = z.string().regex(/^\d{1,10}$/);

/** `{"<uid>": [upload, download]}` in bytes, as V2bX and XrayR push it. */
export const PushBodySchema = z.record(
  UserId,
  z.tuple([z.number().int().min(0).max(MAX_BYTES), z.number().int().min(0).max(MAX_BYTES)]),
);

/** `{"<uid>": ["ip", …]}`: who is online on the node. */
export const AliveBodySchema = z.record(UserId, z.array(z.string().max(64)).max(1024));

/** One push or alive report may name this many users at most. */
export const MAX_USERS_PER_REPORT = 200_000;
