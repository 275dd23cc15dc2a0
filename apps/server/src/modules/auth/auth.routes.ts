import {
  AUTH_HEADER,
  changePassword,
  getCaptcha,
  login,
  logout,
  type RequestLanguage,
  register,
  requestLanguageOf,
  resetPassword,
  sendEmailCode,
} from '@mutenet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import { CountedLimit } from '../../lib/counted-limit.js';
import { oncePerRequest } from '../../lib/early-answers.js';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';
import { CAPTCHA_ANSWER_HEADERS, captchaAnswer } from './captcha-answer.js';
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

  // Every sign-in, sign-up and reset screen asks for a captcha, and asks again after each wrong try: the call is
  // answered before Fastify routes it (lib/early-answers.ts), by the same code as the route's, and its per-IP limit
  // is counted in the store once, by whichever of the two comes to it first. One over the limit goes to the route.
  const captchaLimit = new CountedLimit(fastify.store, fastify.log, 'captcha-ip', IP_LIMITS.captcha);
  const countCaptcha = oncePerRequest((ip: string | undefined) => captchaLimit.count(ip ?? ''));
  const newCaptcha = async (language: RequestLanguage) => {
    const { imgId, svgBase64 } = await fastify.captchas.create();
    return captchaAnswer(language, imgId, svgBase64);
  };
  // Without the type provider: the answer is the serializer's bytes already (captcha-answer.ts).
  fastify.route({
    ...routeOf(getCaptcha),
    // A picture in base64 shrinks by a fifth, for three times the call's CPU: it goes as it is.
    config: { compress: false },
    handler: async (request, reply) => {
      const waitSeconds = await countCaptcha(request.raw, request.ip);
      if (waitSeconds) throw new AppError('TOO_MANY_REQUESTS', null, waitSeconds);
      return reply.headers(CAPTCHA_ANSWER_HEADERS).send(await newCaptcha(request.language));
    },
  });
  fastify.earlyAnswers.add(getCaptcha.path, async ({ raw, ip }) => {
    if (await countCaptcha(raw, ip())) return undefined;
    const body = await newCaptcha(requestLanguageOf(raw.headers['accept-language']));
    return { status: 200, headers: CAPTCHA_ANSWER_HEADERS, body };
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
