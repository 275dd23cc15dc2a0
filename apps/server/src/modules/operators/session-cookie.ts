import { ADMIN_SESSION_COOKIE } from '@mutenet/contract';
import { parseCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';

/** The operator's session token from the `mutenet_admin` cookie, if the request has one. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  const cookies = request.headers.cookie;
  return cookies ? parseCookie(cookies)[ADMIN_SESSION_COOKIE] || undefined : undefined;
}
