import * as z from 'zod/mini';

/** Every `/mutenet/` JSON answer: `code` 0 is success, anything else an error with `msg` in the request's language. */
export function envelopeOf<T extends z.ZodMiniType>(data: T) {
  return z.object({ code: z.int(), msg: z.string(), data });
}

export const EmptyEnvelopeSchema = envelopeOf(z.null());

export type Envelope<T> = { code: number; msg: string; data: T };

export const SUCCESS_CODE = 0;
