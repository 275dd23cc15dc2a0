import { type ErrorKey, isErrorKey } from '@mutenet/contract';
import type * as z from 'zod/mini';

export type Validation<S extends z.ZodMiniType> = { ok: true; data: z.output<S> } | { ok: false; error: ErrorKey };

/**
 * Checks a form with its contract schema. The contract reports only the first failing rule, in the
 * spec's order, with the error key as the issue's message.
 */
export function validate<S extends z.ZodMiniType>(schema: S, values: z.input<S>): Validation<S> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const message = result.error.issues[0]?.message;
  return { ok: false, error: isErrorKey(message) ? message : 'BAD_REQUEST' };
}
