import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { EmptyEnvelopeSchema, envelopeOf } from '../envelope.js';
import { firstFailing, notEmpty, trimmedField } from '../rules.js';
import { OperatorRoleSchema } from './roles.js';

export const API_TOKEN_NAME_MAX_LENGTH = 64;

/**
 * An API token as owners see it, never its secret: a script sends that as `Authorization: Bearer <token>` and is
 * answered as the console is, within the token's role, in its maker's name (a disabled maker's tokens answer 401).
 */
export const ApiTokenSchema = z.object({
  id: z.number(),
  name: z.string(),
  role: OperatorRoleSchema,
  /** The operator who made it. */
  createdBy: z.object({ id: z.number(), email: z.string() }),
  /** Milliseconds since the epoch; `lastUsedAt` is null until the first call (and moves at most once a minute). */
  createdAt: z.number(),
  lastUsedAt: z.nullable(z.number()),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** The tokens not revoked, oldest first (owners only). */
export const adminGetApiTokens = endpoint({
  method: 'GET',
  path: '/api/tokens',
  response: envelopeOf(z.object({ tokens: z.array(ApiTokenSchema) })),
});

export const NewApiTokenBodySchema = z.object({ name: trimmedField, role: OperatorRoleSchema }).check(
  firstFailing([
    [(v) => notEmpty(v.name), 'ALL_REQUIRED'],
    [(v) => v.name.length <= API_TOKEN_NAME_MAX_LENGTH, 'BAD_REQUEST'],
  ]),
);
export type NewApiTokenBody = z.input<typeof NewApiTokenBodySchema>;

/** A new token and its secret, shown this once: only its hash is kept. */
export const ApiTokenWithSecretSchema = z.extend(ApiTokenSchema, { token: z.string() });
export type ApiTokenWithSecret = z.infer<typeof ApiTokenWithSecretSchema>;

/** Makes a token with a role (owners only). */
export const adminCreateApiToken = endpoint({
  method: 'POST',
  path: '/api/tokens',
  body: NewApiTokenBodySchema,
  response: envelopeOf(ApiTokenWithSecretSchema),
});

export const ApiTokenIdParamsSchema = z.object({
  id: z.coerce.number().check(z.int(), z.positive(), z.maximum(2_147_483_647)),
});

/** Revokes a token: its next call answers 401 (owners only). NOT_FOUND when no such token is live. */
export const adminRevokeApiToken = endpoint({
  method: 'DELETE',
  path: '/api/tokens/:id',
  params: ApiTokenIdParamsSchema,
  response: EmptyEnvelopeSchema,
});
