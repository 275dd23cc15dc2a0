import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { EmptyEnvelopeSchema } from '../envelope.js';
import { firstFailing, formField, isEmail, notEmpty, trimmedField } from '../rules.js';
import { EMAIL_CODE_ACTIONS } from './auth.schema.js';

export const SendEmailCodeQuerySchema = z.object({ action: z.enum(EMAIL_CODE_ACTIONS) });

export const SendEmailCodeBodySchema = z
  .object({
    imgId: formField,
    imgCode: trimmedField,
    email: trimmedField,
  })
  .check(
    firstFailing([
      [(v) => notEmpty(v.imgCode), 'PICTURE_CODE_FIRST'],
      [(v) => isEmail(v.email), 'EMAIL_FORMAT'],
    ]),
  );
export type SendEmailCodeBody = z.input<typeof SendEmailCodeBodySchema>;

export const sendEmailCode = endpoint({
  method: 'POST',
  path: '/mutenet/verify/code/email',
  query: SendEmailCodeQuerySchema,
  body: SendEmailCodeBodySchema,
  response: EmptyEnvelopeSchema,
});
