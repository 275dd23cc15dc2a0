import { z } from 'zod';

/** Every `/mutenet/` JSON answer: `code` 0 is success, anything else an error with `msg` in the request's language. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data });
}

export const EmptyEnvelopeSchema = envelopeOf(z.null());

export type Envelope<T> = { code: number; msg: string; data: T };

export const SUCCESS_CODE = 0;
