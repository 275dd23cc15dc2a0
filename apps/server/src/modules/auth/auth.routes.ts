import {
  AUTH_HEADER,
  changePassword,
  getCaptcha,
  login,
  logout,
  register,
  resetPassword,
  sendEmailCode,
} from '@mutenet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';
import { tokenOf } from './session-token.js';

/** Per-IP limits (requests per window); per-account limits live in the service. Stated in the README. */
export const IP_LIMITS = {
  captcha: { max: 30, timeWindow: 60_000 },
  emailCode: { max: 10, timeWindow: 10 * 60_000 },
  login: { max: 20, timeWindow: 60_000 },
  register: { max: 10, timeWindow: 60 * 60_000 },
  resetPassword: { max: 10, timeWindow: 10 * 60_000 },
  changePassword: { max: 10, timeWindow: 10 * 60_000 },
} as const;

function isEmptyForm(body: unknown): boolean {
  if (body === undefined || body === null || body === '') return true;
  return typeof body === 'object' && Object.values(body).every((value) => value === '' || value === undefined);
}

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const requireUser = { onRequest: fastify.authenticate };

  app.route({
    ...routeOf(getCaptcha),
    config: { rateLimit: IP_LIMITS.captcha },
    // A picture in base64 shrinks by a fifth at most: it goes as it is.
    compress: false,
    handler: async (request) => ok(request, await fastify.captchas.create()),
  });

  app.route({
    ...routeOf(sendEmailCode),
    config: { rateLimit: IP_LIMITS.emailCode },
    handler: async (request) => {
      await fastify.auth.sendEmailCode(request.query.action, request.body, request.language);
      return ok(request, null, 'EMAIL_CODE_SENT');
    },
  });

  app.route({
    ...routeOf(register),
    config: { rateLimit: IP_LIMITS.register },
    handler: async (request) => {
      await fastify.auth.register(request.body);
      return ok(request, null, 'REGISTERED');
    },
  });

  app.route({
    ...routeOf(login),
    config: { rateLimit: IP_LIMITS.login },
    // With no fields and a token, the same call is the session check: 401 unless the token is live. It answers
    // before the rate limit (a preHandler) counts, as it runs on every page load and guesses no password.
    preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
      if (!isEmptyForm(request.body) || !request.headers.authorization) return;
      await fastify.authenticate(request);
      return reply.send(ok(request, { user: request.user.email }));
    },
    handler: async (request, reply) => {
      const { token, user } = await fastify.auth.login(request.body);
      reply.header(AUTH_HEADER, token);
      reply.header('cache-control', 'no-store');
      return ok(request, { user });
    },
  });

  app.route({
    ...routeOf(logout),
    ...requireUser,
    handler: async (request) => {
      const token = tokenOf(request);
      if (!token) throw new AppError('UNAUTHORIZED');
      await fastify.auth.logout(token);
      return ok(request, null, 'LOGGED_OUT');
    },
  });

  app.route({
    ...routeOf(resetPassword),
    config: { rateLimit: IP_LIMITS.resetPassword },
    handler: async (request) => {
      await fastify.auth.resetPassword(request.body);
      return ok(request, null, 'PASSWORD_RESET');
    },
  });

  app.route({
    ...routeOf(changePassword),
    ...requireUser,
    config: { rateLimit: IP_LIMITS.changePassword },
    handler: async (request) => {
      await fastify.auth.changePassword(request.user.id, request.body);
      return ok(request, null, 'PASSWORD_CHANGED');
    },
  });
}
