import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { firstFailing, formField, isEmail, notEmpty, trimmedField } from '../rules.js';
import { SessionUserSchema } from './auth.schema.js';

/** Login form; with every field empty and a token sent, the same call is the session check. */
export const LoginBodySchema = z
  .object({
    email: trimmedField,
    password: formField,
    imgCode: trimmedField,
    imgId: formField,
  })
  .check(
    firstFailing([
      [(v) => notEmpty(v.email) && notEmpty(v.password) && notEmpty(v.imgCode), 'ALL_REQUIRED'],
      [(v) => isEmail(v.email), 'EMAIL_FORMAT'],
    ]),
  );
export type LoginBody = z.input<typeof LoginBodySchema>;

export const login = endpoint({
  method: 'POST',
  path: '/mutenet/login',
  body: LoginBodySchema,
  response: envelopeOf(SessionUserSchema),
});
