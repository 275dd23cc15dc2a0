import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { EmptyEnvelopeSchema } from '../envelope.js';
import {
  firstFailing,
  formField,
  INVITE_CODE_PATTERN,
  isEmail,
  isPasswordFormat,
  isUsername,
  notEmpty,
  type Rule,
  trimmedField,
} from '../rules.js';

const registerFields = {
  name: trimmedField,
  email: trimmedField,
  password: formField,
  emailCode: trimmedField,
  inviteCode: trimmedField,
};

type RegisterFields = { name: string; email: string; password: string; emailCode: string; inviteCode: string };

const identityRules: Rule<RegisterFields>[] = [
  [(v) => isUsername(v.name), 'USERNAME_INVALID'],
  [(v) => isEmail(v.email), 'EMAIL_FORMAT'],
  [(v) => notEmpty(v.password), 'PASSWORD_BLANK'],
];
const secretRules: Rule<RegisterFields>[] = [
  [(v) => isPasswordFormat(v.password), 'PASSWORD_FORMAT'],
  [(v) => notEmpty(v.emailCode), 'EMAIL_CODE_REQUIRED'],
  [(v) => v.inviteCode === '' || INVITE_CODE_PATTERN.test(v.inviteCode), 'INVITE_CODE_INVALID'],
];

/** What the server takes. `inviteCode` is sent only when filled. */
export const RegisterBodySchema = z.object(registerFields).check(firstFailing([...identityRules, ...secretRules]));
export type RegisterBody = z.input<typeof RegisterBodySchema>;

/** The register screen's form: the body plus the repeated password, checked in the spec's order. */
export const RegisterFormSchema = z
  .object({ ...registerFields, repeatPassword: formField })
  .check(
    firstFailing<RegisterFields & { repeatPassword: string }>([
      ...identityRules,
      [(v) => notEmpty(v.repeatPassword), 'PASSWORD_BLANK'],
      [(v) => v.password === v.repeatPassword, 'PASSWORD_DIFFERENT'],
      ...secretRules,
    ]),
  );
export type RegisterForm = z.input<typeof RegisterFormSchema>;

export const register = endpoint({
  method: 'POST',
  path: '/mutenet/register',
  body: RegisterBodySchema,
  response: EmptyEnvelopeSchema,
});
