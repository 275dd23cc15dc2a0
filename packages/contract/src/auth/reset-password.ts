import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { EmptyEnvelopeSchema } from '../envelope.js';
import { firstFailing, formField, isEmail, isPasswordFormat, notEmpty, type Rule, trimmedField } from '../rules.js';

const resetFields = { email: trimmedField, newPwd: formField, emailCode: trimmedField };
type ResetFields = { email: string; newPwd: string; emailCode: string };

const emailRule: Rule<ResetFields> = [(v) => isEmail(v.email), 'EMAIL_FORMAT'];
const blankRule: Rule<ResetFields> = [(v) => notEmpty(v.newPwd), 'PASSWORD_BLANK'];
const tailRules: Rule<ResetFields>[] = [
  [(v) => isPasswordFormat(v.newPwd), 'PASSWORD_FORMAT'],
  [(v) => notEmpty(v.emailCode), 'EMAIL_CODE_REQUIRED'],
];

/** The answer never tells whether the email is registered: an unknown one fails as a wrong code. */
export const ResetPasswordBodySchema = z.object(resetFields).check(firstFailing([emailRule, blankRule, ...tailRules]));
export type ResetPasswordBody = z.input<typeof ResetPasswordBodySchema>;

export const ResetPasswordFormSchema = z
  .object({ ...resetFields, repeatPwd: formField })
  .check(
    firstFailing<ResetFields & { repeatPwd: string }>([
      emailRule,
      blankRule,
      [(v) => notEmpty(v.repeatPwd), 'PASSWORD_BLANK'],
      [(v) => v.newPwd === v.repeatPwd, 'PASSWORD_DIFFERENT'],
      ...tailRules,
    ]),
  );
export type ResetPasswordForm = z.input<typeof ResetPasswordFormSchema>;

export const resetPassword = endpoint({
  method: 'POST',
  path: '/mutenet/password/reset',
  body: ResetPasswordBodySchema,
  response: EmptyEnvelopeSchema,
});
