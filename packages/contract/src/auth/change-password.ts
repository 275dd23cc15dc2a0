import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { EmptyEnvelopeSchema } from '../envelope.js';
import { firstFailing, formField, isPasswordFormat, notEmpty } from '../rules.js';

/** The old password is checked by the server only, against the stored hash. */
export const ChangePasswordBodySchema = z.object({ oldPwd: formField, newPwd: formField }).check(
  firstFailing([
    [(v) => notEmpty(v.newPwd), 'PASSWORD_BLANK'],
    [(v) => isPasswordFormat(v.newPwd), 'PASSWORD_FORMAT'],
  ]),
);
export type ChangePasswordBody = z.input<typeof ChangePasswordBodySchema>;

export const ChangePasswordFormSchema = z.object({ oldPwd: formField, newPwd: formField, repeatPwd: formField }).check(
  firstFailing([
    [(v) => notEmpty(v.newPwd) && notEmpty(v.repeatPwd), 'PASSWORD_BLANK'],
    [(v) => v.newPwd === v.repeatPwd, 'NEW_PASSWORD_DIFFERENT'],
    [(v) => isPasswordFormat(v.newPwd), 'PASSWORD_FORMAT'],
  ]),
);
export type ChangePasswordForm = z.input<typeof ChangePasswordFormSchema>;

/** Revokes every session of the user, this one included: the panel then signs in again. */
export const changePassword = endpoint({
  method: 'POST',
  path: '/mutenet/user/password',
  body: ChangePasswordBodySchema,
  response: EmptyEnvelopeSchema,
});
