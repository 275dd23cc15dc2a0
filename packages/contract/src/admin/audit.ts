import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';

/** One change an operator (or an API token) made: who, when, what, the values before and after, from where. */
export const AuditEntrySchema = z.object({
  id: z.number(),
  /** The operator's email; a token's changes name the token after its maker's email. */
  actor: z.string(),
  operatorId: z.nullable(z.number()),
  tokenId: z.nullable(z.number()),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  /** The values the change touched as they were, and as it left them (null where there was none). */
  before: z.nullable(z.unknown()),
  after: z.nullable(z.unknown()),
  ip: z.string(),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const id = z.coerce.number().check(z.int(), z.positive());
const time = z.coerce.number().check(z.int(), z.nonnegative());

export const AuditQuerySchema = z.object({
  operatorId: z.optional(id),
  action: z.optional(z.string().check(z.maxLength(64))),
  targetType: z.optional(z.string().check(z.maxLength(32))),
  targetId: z.optional(z.string().check(z.maxLength(64))),
  /** From and to (exclusive), in milliseconds since the epoch. */
  from: z.optional(time),
  to: z.optional(time),
  /** The `next` of the previous page: entries older than it. */
  cursor: z.optional(id),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

/** The audit log, newest first, a page at a time (owners only). */
export const getAuditLog = endpoint({
  method: 'GET',
  path: '/api/audit',
  query: AuditQuerySchema,
  response: envelopeOf(z.object({ entries: z.array(AuditEntrySchema), next: z.nullable(z.number()) })),
});
