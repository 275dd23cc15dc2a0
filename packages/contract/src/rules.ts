import * as z from 'zod/mini';
import type { ErrorKey } from './errors.js';

/** One check of a form, and the error it reports when it fails. */
export type Rule<T> = readonly [passes: (value: T) => boolean, error: ErrorKey];

/**
 * Reports only the first failing rule, so that the server and the web check a form's fields in the
 * same order (spec section 5) and name the same first problem. The issue's message is the error key.
 */
export function firstFailing<T>(rules: readonly Rule<T>[]) {
  return z.superRefine<T>((value, ctx) => {
    for (const [passes, error] of rules) {
      if (!passes(value)) {
        ctx.addIssue({ code: 'custom', message: error });
        return;
      }
    }
  });
}

/** A form field as it arrives form-encoded: a string, absent meaning empty. Longer than any field we take. */
export const formField = z._default(z.string().check(z.maxLength(1024)), '');
/** A form field that is trimmed before it is checked. */
export const trimmedField = z.pipe(
  formField,
  z.transform((s: string) => s.trim()),
);

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this rejects
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

// Kept simple on purpose: one @, no spaces, a dot in the domain; the mailbox itself is proved by the email code.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export const EMAIL_MAX_LENGTH = 254;

export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value) && !CONTROL_CHARACTERS.test(value);
}

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 24;
const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])\S{6,24}$/;

/** 6 to 24 non-space characters with at least one digit, one lower-case and one upper-case letter. */
export function isPasswordFormat(value: string): boolean {
  return PASSWORD_PATTERN.test(value);
}

export const USERNAME_MAX_LENGTH = 32;

export function isUsername(value: string): boolean {
  return value.length > 0 && value.length <= USERNAME_MAX_LENGTH && !CONTROL_CHARACTERS.test(value);
}

export const INVITE_CODE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const EMAIL_CODE_PATTERN = /^\d{6}$/;
export const CAPTCHA_CODE_MAX_LENGTH = 16;

export const notEmpty = (value: string) => value.length > 0;
