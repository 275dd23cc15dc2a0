import * as z from 'zod/mini';

/** What the panel keeps of the signed-in customer: the email, for display. */
export const SessionUserSchema = z.object({ user: z.string() });
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** The response header that carries a new session token, and the request header that sends it back. */
export const AUTH_HEADER = 'authorization';

export const EMAIL_CODE_ACTIONS = ['register', 'reset_password'] as const;
export type EmailCodeAction = (typeof EMAIL_CODE_ACTIONS)[number];

/** A captcha lives this long; the panel fetches a fresh one a little before. */
export const CAPTCHA_TTL_SECONDS = 300;
/** At most one email code a minute to an address: the send button counts this down. */
export const EMAIL_CODE_RESEND_SECONDS = 60;
