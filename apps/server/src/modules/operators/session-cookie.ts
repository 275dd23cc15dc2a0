import { ADMIN_PENDING_SIGN_IN_COOKIE, ADMIN_SESSION_COOKIE } from '@mutenet/contract';
import { parseCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const cookies = request.headers.cookie;
  return cookies ? parseCookie(cookies)[name] || undefined : undefined;
}

/** The operator's session token from the `mutenet_admin` cookie, if the request has one. */
export const sessionCookieOf = (request: FastifyRequest) => cookieOf(request, ADMIN_SESSION_COOKIE);

/** The token of a sign-in waiting for its passkey, from the `mutenet_admin_pending` cookie. */
export const pendingSignInCookieOf = (request: FastifyRequest) => cookieOf(request, ADMIN_PENDING_SIGN_IN_COOKIE);
