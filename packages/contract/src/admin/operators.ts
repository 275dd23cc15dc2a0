import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { firstFailing, isEmail, trimmedField } from '../rules.js';
import { OperatorRoleSchema } from './roles.js';

/** An operator as owners see them: never a password hash or a TOTP secret. */
export const OperatorAccountSchema = z.object({
  id: z.number(),
  email: z.string(),
  role: OperatorRoleSchema,
  totpEnrolled: z.boolean(),
  mustChangePassword: z.boolean(),
  disabled: z.boolean(),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
});
export type OperatorAccount = z.infer<typeof OperatorAccountSchema>;

/** Every operator, oldest first (owners only). */
export const adminGetOperators = endpoint({
  method: 'GET',
  path: '/api/operators',
  response: envelopeOf(z.object({ operators: z.array(OperatorAccountSchema) })),
});

export const NewOperatorBodySchema = z
  .object({ email: trimmedField, role: OperatorRoleSchema })
  .check(firstFailing([[(v) => isEmail(v.email), 'EMAIL_FORMAT']]));
export type NewOperatorBody = z.input<typeof NewOperatorBodySchema>;

/** An operator and the one-time password they sign in with once, to be changed then; shown this once. */
export const OperatorWithPasswordSchema = z.object({ operator: OperatorAccountSchema, password: z.string() });
export type OperatorWithPassword = z.infer<typeof OperatorWithPasswordSchema>;

/** Adds an operator (owners only). */
export const adminAddOperator = endpoint({
  method: 'POST',
  path: '/api/operators',
  body: NewOperatorBodySchema,
  response: envelopeOf(OperatorWithPasswordSchema),
});

export const OperatorIdParamsSchema = z.object({
  id: z.coerce.number().check(z.int(), z.positive(), z.maximum(2_147_483_647)),
});

/** The changes to make; an owner cannot demote or disable the last active owner (LAST_OWNER). */
export const UpdateOperatorBodySchema = z.object({
  role: z.optional(OperatorRoleSchema),
  disabled: z.optional(z.boolean()),
});
export type UpdateOperatorBody = z.input<typeof UpdateOperatorBodySchema>;

/** Changes an operator's role or disables them (their sessions end); owners only. */
export const adminUpdateOperator = endpoint({
  method: 'PUT',
  path: '/api/operators/:id',
  params: OperatorIdParamsSchema,
  body: UpdateOperatorBodySchema,
  response: envelopeOf(OperatorAccountSchema),
});

/** A new one-time password for an operator (their sessions end), shown this once; owners only. */
export const adminResetOperatorPassword = endpoint({
  method: 'POST',
  path: '/api/operators/:id/reset-password',
  params: OperatorIdParamsSchema,
  response: envelopeOf(OperatorWithPasswordSchema),
});
