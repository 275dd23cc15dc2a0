import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { EmptyEnvelopeSchema, envelopeOf } from '../envelope.js';
import { firstFailing, notEmpty, trimmedField } from '../rules.js';
import { SessionStepAnswerSchema, SessionStepSchema } from './session.js';

// Passkeys (WebAuthn) as an operator's second factor. The console hands the options to the browser
// (@simplewebauthn/browser's startRegistration / startAuthentication) and sends back what the browser answered.

/** The longest name of a passkey. */
export const PASSKEY_NAME_MAX_LENGTH = 64;

/** base64url, as WebAuthn's JSON carries ids, keys and signatures. */
const base64url = z.string().check(z.maxLength(16_384), z.regex(/^[A-Za-z0-9_-]*$/));

/**
 * Options for `navigator.credentials.create` / `.get` in WebAuthn's JSON form (PublicKeyCredentialCreationOptionsJSON,
 * PublicKeyCredentialRequestOptionsJSON): passed through to the browser as the server made them.
 */
export const PasskeyOptionsSchema = z.looseObject({ challenge: z.string() });
export type PasskeyOptions = z.infer<typeof PasskeyOptionsSchema>;

const PasskeyOptionsAnswerSchema = z.object({ options: PasskeyOptionsSchema });

/** What the browser answered to `create` (RegistrationResponseJSON), the parts the server reads. */
export const PasskeyRegistrationSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(8))),
  }),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown()), {}),
});
export type PasskeyRegistration = z.input<typeof PasskeyRegistrationSchema>;

/** What the browser answered to `get` (AuthenticationResponseJSON), the parts the server reads. */
export const PasskeyAssertionSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: z.optional(base64url),
  }),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown()), {}),
});
export type PasskeyAssertion = z.input<typeof PasskeyAssertionSchema>;

/** One of the operator's passkeys: never its public key. */
export const PasskeySchema = z.object({
  id: z.number(),
  name: z.string(),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
  /** Milliseconds since the epoch; null before its first sign-in. */
  lastUsedAt: z.nullable(z.number()),
});
export type Passkey = z.infer<typeof PasskeySchema>;

// Signing in with a passkey, after the password was answered SECOND_FACTOR_REQUIRED (and the pending sign-in cookie).

/** The options to sign in with one of the pending operator's passkeys; 401 without a pending sign-in. */
export const adminBeginPasskeySignIn = endpoint({
  method: 'POST',
  path: '/api/session/passkey/options',
  response: envelopeOf(PasskeyOptionsAnswerSchema),
});

/** Signs in with the passkey's answer: the session cookie as the password's sign-in sets it; LOGIN_FAILED if wrong. */
export const adminPasskeySignIn = endpoint({
  method: 'POST',
  path: '/api/session/passkey',
  body: PasskeyAssertionSchema,
  response: envelopeOf(SessionStepAnswerSchema),
});

// The signed-in operator's own passkeys (a session, not an API token; an owner's session that must still enrol a
// second factor may add one).

/** Every passkey of the operator, oldest first. */
export const adminGetPasskeys = endpoint({
  method: 'GET',
  path: '/api/session/passkeys',
  response: envelopeOf(z.object({ passkeys: z.array(PasskeySchema) })),
});

/** Begins adding a passkey: the options for the browser, valid for minutes and once. */
export const adminBeginPasskeyRegistration = endpoint({
  method: 'POST',
  path: '/api/session/passkeys/options',
  response: envelopeOf(PasskeyOptionsAnswerSchema),
});

export const NewPasskeyBodySchema = z.object({ name: trimmedField, response: PasskeyRegistrationSchema }).check(
  firstFailing([
    [(v) => notEmpty(v.name), 'ALL_REQUIRED'],
    [(v) => v.name.length <= PASSKEY_NAME_MAX_LENGTH, 'PASSKEY_NAME_INVALID'],
  ]),
);
export type NewPasskeyBody = z.input<typeof NewPasskeyBodySchema>;

/** Adds the passkey the browser made (PASSKEY_INVALID if it does not verify); the session is then verified. */
export const adminAddPasskey = endpoint({
  method: 'POST',
  path: '/api/session/passkeys',
  body: NewPasskeyBodySchema,
  response: envelopeOf(z.object({ passkey: PasskeySchema, next: SessionStepSchema })),
});

export const PasskeyIdParamsSchema = z.object({
  id: z.coerce.number().check(z.int(), z.positive(), z.maximum(2_147_483_647)),
});

/** Removes one of the operator's passkeys; an owner's last second factor stays (LAST_SECOND_FACTOR). */
export const adminRemovePasskey = endpoint({
  method: 'DELETE',
  path: '/api/session/passkeys/:id',
  params: PasskeyIdParamsSchema,
  response: EmptyEnvelopeSchema,
});
