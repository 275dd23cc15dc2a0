import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { EmptyEnvelopeSchema, envelopeOf } from '../envelope.js';
import { firstFailing, formField, isEmail, isPasswordFormat, notEmpty, trimmedField } from '../rules.js';
import { ADMIN_PERMISSIONS, type AdminPermission, OperatorRoleSchema } from './roles.js';

/**
 * The operator's session cookie: HttpOnly, SameSite=Strict, scoped to the console's path. Scripts send an API token
 * as `Authorization: Bearer <token>` instead.
 */
export const ADMIN_SESSION_COOKIE = 'mutenet_admin';

/**
 * A sign-in whose password was right and that waits for its second factor (a passkey): HttpOnly, SameSite=Strict,
 * minutes long. The server holds who it is; the cookie only names that state.
 */
export const ADMIN_PENDING_SIGN_IN_COOKIE = 'mutenet_admin_pending';

/** The second factors an operator may have: an authenticator app's code, or a passkey. */
export const SECOND_FACTORS = ['totp', 'passkey'] as const;
export const SecondFactorSchema = z.enum(SECOND_FACTORS);
export type SecondFactor = z.infer<typeof SecondFactorSchema>;

/** The `data` of a SECOND_FACTOR_REQUIRED answer to the password: the factors this operator can give. */
export const SecondFactorRequiredSchema = z.object({ factors: z.array(SecondFactorSchema) });
export type SecondFactorRequired = z.infer<typeof SecondFactorRequiredSchema>;

/** A TOTP code: six digits. */
export const TOTP_CODE_PATTERN = /^\d{6}$/;

/**
 * What a signed-in operator must do before the console opens: choose a new password (after a one-time password),
 * enrol a second factor (owners must have one: an authenticator app or a passkey), or nothing.
 */
export const SESSION_STEPS = ['ready', 'change-password', 'enrol-second-factor'] as const;
export const SessionStepSchema = z.enum(SESSION_STEPS);
export type SessionStep = z.infer<typeof SessionStepSchema>;

/**
 * Email and password; `code`, the authenticator's, once the operator has enrolled one. An operator with a second
 * factor who sends no code is answered SECOND_FACTOR_REQUIRED with the factors they have (SecondFactorRequired) and
 * the pending sign-in cookie: the console then sends the password again with the code, or signs in with a passkey
 * (`adminBeginPasskeySignIn`).
 */
export const AdminSignInBodySchema = z
  .object({ email: trimmedField, password: formField, code: z.optional(trimmedField) })
  .check(
    firstFailing([
      [(v) => notEmpty(v.email) && notEmpty(v.password), 'ALL_REQUIRED'],
      [(v) => isEmail(v.email), 'EMAIL_FORMAT'],
    ]),
  );
export type AdminSignInBody = z.input<typeof AdminSignInBodySchema>;

export const SessionStepAnswerSchema = z.object({ next: SessionStepSchema });
export type SessionStepAnswer = z.infer<typeof SessionStepAnswerSchema>;

/** Signs in: the session travels in the `mutenet_admin` cookie; the answer says what comes next. */
export const adminSignIn = endpoint({
  method: 'POST',
  path: '/api/session',
  body: AdminSignInBodySchema,
  response: envelopeOf(SessionStepAnswerSchema),
});

export const AdminPermissionSchema = z.enum(Object.keys(ADMIN_PERMISSIONS) as [AdminPermission, ...AdminPermission[]]);

/** Who is signed in, and what the console may show them. */
export const OperatorSessionSchema = z.object({
  id: z.number(),
  email: z.string(),
  role: OperatorRoleSchema,
  totpEnrolled: z.boolean(),
  /** How many passkeys the operator has. */
  passkeys: z.number(),
  mustChangePassword: z.boolean(),
  /** An owner without a second factor yet: the session may only enrol one (and change the password). */
  secondFactorPending: z.boolean(),
  /** What the role may do; empty while the session is limited to changing the password or enrolling. */
  permissions: z.array(AdminPermissionSchema),
});
export type OperatorSession = z.infer<typeof OperatorSessionSchema>;

/** Who am I: 401 without a live session. */
export const adminGetSession = endpoint({
  method: 'GET',
  path: '/api/session',
  response: envelopeOf(OperatorSessionSchema),
});

/** Signs out: the session is revoked and the cookie cleared. */
export const adminSignOut = endpoint({
  method: 'DELETE',
  path: '/api/session',
  response: EmptyEnvelopeSchema,
});

/** The current password is checked by the server only; the new one follows the customers' rules. */
export const AdminChangePasswordBodySchema = z.object({ current: formField, next: formField }).check(
  firstFailing([
    [(v) => notEmpty(v.current) && notEmpty(v.next), 'PASSWORD_BLANK'],
    [(v) => isPasswordFormat(v.next), 'PASSWORD_FORMAT'],
  ]),
);
export type AdminChangePasswordBody = z.input<typeof AdminChangePasswordBodySchema>;

/** Changes the password: every other session of the operator is revoked, this one goes on. */
export const adminChangePassword = endpoint({
  method: 'POST',
  path: '/api/session/password',
  body: AdminChangePasswordBodySchema,
  response: envelopeOf(SessionStepAnswerSchema),
});

/** A new authenticator secret, in base32 and as the otpauth:// URI the console draws as a QR code. */
export const TotpEnrolmentSchema = z.object({ secret: z.string(), uri: z.string() });
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

/** Begins enrolling an authenticator; it counts once a first code confirms it. */
export const adminBeginTotp = endpoint({
  method: 'POST',
  path: '/api/session/totp',
  response: envelopeOf(TotpEnrolmentSchema),
});

export const TotpCodeBodySchema = z
  .object({ code: trimmedField })
  .check(firstFailing([[(v) => TOTP_CODE_PATTERN.test(v.code), 'TOTP_CODE_INVALID']]));
export type TotpCodeBody = z.input<typeof TotpCodeBodySchema>;

/** Confirms the enrolment with a first code; the session is then verified. */
export const adminConfirmTotp = endpoint({
  method: 'POST',
  path: '/api/session/totp/confirm',
  body: TotpCodeBodySchema,
  response: envelopeOf(SessionStepAnswerSchema),
});
