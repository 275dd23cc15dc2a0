import {
  ADMIN_PENDING_SIGN_IN_COOKIE,
  ADMIN_SESSION_COOKIE,
  adminAddOperator,
  adminAddPasskey,
  adminBeginPasskeyRegistration,
  adminBeginPasskeySignIn,
  adminBeginTotp,
  adminChangePassword,
  adminConfirmTotp,
  adminGetOperators,
  adminGetPasskeys,
  adminGetSession,
  adminPasskeySignIn,
  adminRemovePasskey,
  adminResetOperatorPassword,
  adminSignIn,
  adminSignOut,
  adminUpdateOperator,
} from '@mutenet/contract';
import { stringifySetCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';
import { PENDING_SIGN_IN_TTL_MS, SESSION_MAX_MS } from './operators.service.js';
import { pendingSignInCookieOf, sessionCookieOf } from './session-cookie.js';

/** Per-IP limits (requests per window); the per-account lock lives in the service. */
export const OPERATOR_IP_LIMITS = {
  signIn: { max: 20, timeWindow: 60_000 },
  password: { max: 10, timeWindow: 10 * 60_000 },
  totp: { max: 20, timeWindow: 10 * 60_000 },
  passkey: { max: 20, timeWindow: 10 * 60_000 },
} as const;

export type OperatorsRoutesOptions = { adminPath: string; ownOrigin: string };

export default async function operatorsRoutes(
  fastify: FastifyInstance,
  { adminPath, ownOrigin }: OperatorsRoutesOptions,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const session = { onRequest: fastify.authenticateOperator };
  const owners = { onRequest: fastify.operatorCan('operators.manage') };

  /** The console's cookies: out of scripts' reach, never sent from another site, only to the console's own paths. */
  const cookieOf = (request: FastifyRequest, name: string, token: string | undefined, maxAgeMs: number) =>
    stringifySetCookie({
      name,
      value: token ?? '',
      httpOnly: true,
      sameSite: 'strict',
      path: adminPath,
      secure: request.protocol === 'https',
      maxAge: token ? maxAgeMs / 1000 : 0,
    });

  /** Sets (or with no token, clears) the session cookie; a sign-in waiting for its passkey ends either way. */
  const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, token: string | undefined) => {
    reply.header('set-cookie', [
      cookieOf(request, ADMIN_SESSION_COOKIE, token, SESSION_MAX_MS),
      cookieOf(request, ADMIN_PENDING_SIGN_IN_COOKIE, undefined, 0),
    ]);
    reply.header('cache-control', 'no-store');
  };

  /** A page of another site must not sign the browser in to an account of its choosing (login CSRF). */
  const sameOriginSignIn = async (request: FastifyRequest) => {
    const { origin } = request.headers;
    if (origin !== undefined && origin !== ownOrigin) throw new AppError('FORBIDDEN');
  };

  /** The sign-in waiting for a passkey, from its cookie: 401 without one. */
  const pendingSignIn = (request: FastifyRequest) => {
    const pending = pendingSignInCookieOf(request);
    if (!pending) throw new AppError('UNAUTHORIZED');
    return pending;
  };

  const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });

  /** Only a session (not an API token) has a password and an authenticator of its own to change. */
  const sessionOnly = (request: FastifyRequest) => {
    if (request.operatorAccess.sessionId === null) throw new AppError('FORBIDDEN');
    return request.operatorAccess;
  };

  app.route({
    ...routeOf(adminSignIn),
    config: { rateLimit: OPERATOR_IP_LIMITS.signIn },
    onRequest: sameOriginSignIn,
    handler: async (request, reply) => {
      const result = await fastify.operators.signIn(request.body, clientOf(request));
      if ('pending' in result) {
        // The password was right: the cookie names the sign-in that waits for a passkey (or the code, sent again).
        reply.header(
          'set-cookie',
          cookieOf(request, ADMIN_PENDING_SIGN_IN_COOKIE, result.pending, PENDING_SIGN_IN_TTL_MS),
        );
        reply.header('cache-control', 'no-store');
        throw new AppError('SECOND_FACTOR_REQUIRED', { factors: result.factors });
      }
      setSessionCookie(request, reply, result.token);
      return ok(request, { next: result.next });
    },
  });

  app.route({
    ...routeOf(adminBeginPasskeySignIn),
    config: { rateLimit: OPERATOR_IP_LIMITS.passkey },
    onRequest: sameOriginSignIn,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(request, { options: await fastify.operators.beginPasskeySignIn(pendingSignIn(request)) });
    },
  });

  app.route({
    ...routeOf(adminPasskeySignIn),
    config: { rateLimit: OPERATOR_IP_LIMITS.passkey },
    onRequest: sameOriginSignIn,
    handler: async (request, reply) => {
      const pending = pendingSignIn(request);
      const { token, next } = await fastify.operators.finishPasskeySignIn(pending, request.body, clientOf(request));
      setSessionCookie(request, reply, token);
      return ok(request, { next });
    },
  });

  app.route({
    ...routeOf(adminGetSession),
    ...session,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(request, fastify.operators.describe(request.operatorAccess));
    },
  });

  app.route({
    ...routeOf(adminSignOut),
    ...session,
    handler: async (request, reply) => {
      const token = sessionCookieOf(request);
      if (request.operatorAccess.sessionId !== null && token) await fastify.operators.signOut(token);
      setSessionCookie(request, reply, undefined);
      return ok(request, null, 'LOGGED_OUT');
    },
  });

  app.route({
    ...routeOf(adminChangePassword),
    ...session,
    config: { rateLimit: OPERATOR_IP_LIMITS.password },
    handler: async (request) => {
      const next = await fastify.operators.changePassword(sessionOnly(request), request.body);
      return ok(request, { next });
    },
  });

  app.route({
    ...routeOf(adminBeginTotp),
    ...session,
    config: { rateLimit: OPERATOR_IP_LIMITS.totp },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(request, await fastify.operators.beginTotp(sessionOnly(request)));
    },
  });

  app.route({
    ...routeOf(adminConfirmTotp),
    ...session,
    config: { rateLimit: OPERATOR_IP_LIMITS.totp },
    handler: async (request) => {
      const next = await fastify.operators.confirmTotp(sessionOnly(request), request.body.code);
      return ok(request, { next });
    },
  });

  app.route({
    ...routeOf(adminGetPasskeys),
    ...session,
    handler: async (request) => ok(request, { passkeys: await fastify.operators.listPasskeys(sessionOnly(request)) }),
  });

  app.route({
    ...routeOf(adminBeginPasskeyRegistration),
    ...session,
    config: { rateLimit: OPERATOR_IP_LIMITS.passkey },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(request, { options: await fastify.operators.beginPasskeyRegistration(sessionOnly(request)) });
    },
  });

  app.route({
    ...routeOf(adminAddPasskey),
    ...session,
    config: { rateLimit: OPERATOR_IP_LIMITS.passkey },
    handler: async (request) =>
      ok(request, await fastify.operators.addPasskey(sessionOnly(request), request.body, request.audit)),
  });

  app.route({
    ...routeOf(adminRemovePasskey),
    ...session,
    handler: async (request) => {
      await fastify.operators.removePasskey(sessionOnly(request), request.params.id, request.audit);
      return ok(request, null);
    },
  });

  app.route({
    ...routeOf(adminGetOperators),
    ...owners,
    handler: async (request) => ok(request, { operators: await fastify.operators.list() }),
  });

  app.route({
    ...routeOf(adminAddOperator),
    ...owners,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(request, await fastify.operators.add(request.body.email, request.body.role, request.audit));
    },
  });

  app.route({
    ...routeOf(adminUpdateOperator),
    ...owners,
    handler: async (request) =>
      ok(request, await fastify.operators.update(request.params.id, request.body, request.audit)),
  });

  app.route({
    ...routeOf(adminResetOperatorPassword),
    ...owners,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(request, await fastify.operators.resetPassword(request.params.id, request.audit));
    },
  });
}
