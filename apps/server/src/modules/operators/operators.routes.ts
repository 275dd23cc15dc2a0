import {
  ADMIN_SESSION_COOKIE,
  adminAddOperator,
  adminBeginTotp,
  adminChangePassword,
  adminConfirmTotp,
  adminGetOperators,
  adminGetSession,
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
import { SESSION_MAX_MS } from './operators.service.js';
import { sessionCookieOf } from './session-cookie.js';

/** Per-IP limits (requests per window); the per-account lock lives in the service. */
export const OPERATOR_IP_LIMITS = {
  signIn: { max: 20, timeWindow: 60_000 },
  password: { max: 10, timeWindow: 10 * 60_000 },
  totp: { max: 20, timeWindow: 10 * 60_000 },
} as const;

export type OperatorsRoutesOptions = { adminPath: string; ownOrigin: string };

export default async function operatorsRoutes(
  fastify: FastifyInstance,
  { adminPath, ownOrigin }: OperatorsRoutesOptions,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const session = { onRequest: fastify.authenticateOperator };
  const owners = { onRequest: fastify.operatorCan('operators.manage') };

  /** The session cookie: out of scripts' reach, never sent from another site, only to the console's own paths. */
  const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, token: string | undefined) => {
    const cookie = stringifySetCookie({
      name: ADMIN_SESSION_COOKIE,
      value: token ?? '',
      httpOnly: true,
      sameSite: 'strict',
      path: adminPath,
      secure: request.protocol === 'https',
      maxAge: token ? SESSION_MAX_MS / 1000 : 0,
    });
    reply.header('set-cookie', cookie);
    reply.header('cache-control', 'no-store');
  };

  /** Only a session (not an API token) has a password and an authenticator of its own to change. */
  const sessionOnly = (request: FastifyRequest) => {
    if (request.operatorAccess.sessionId === null) throw new AppError('FORBIDDEN');
    return request.operatorAccess;
  };

  app.route({
    ...routeOf(adminSignIn),
    config: { rateLimit: OPERATOR_IP_LIMITS.signIn },
    // A page of another site must not sign the browser in to an account of its choosing (login CSRF).
    onRequest: async (request: FastifyRequest) => {
      const { origin } = request.headers;
      if (origin !== undefined && origin !== ownOrigin) throw new AppError('FORBIDDEN');
    },
    handler: async (request, reply) => {
      const { token, next } = await fastify.operators.signIn(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      });
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
