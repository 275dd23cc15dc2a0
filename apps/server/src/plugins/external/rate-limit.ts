import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/app-error.js';

/**
 * Per-IP limits, declared by each route in `config.rateLimit`. Counted in Redis when there is one, so that every
 * instance shares them. Counted after validation (preHandler), so that only well-formed attempts use the budget.
 * The calls answered before Fastify routes them (the captcha, the subscription feed) never meet these hooks: theirs
 * are counted by `lib/counted-limit.ts`.
 */
export default fp(
  async (fastify) => {
    await fastify.register(rateLimit, {
      global: false,
      hook: 'preHandler',
      ...(fastify.redis ? { redis: fastify.redis, nameSpace: 'rate-limit:' } : {}),
      // While Redis is away the limiter lets requests through rather than turning the panel off.
      skipOnError: true,
      errorResponseBuilder: () => new AppError('TOO_MANY_REQUESTS'),
    });
  },
  { name: 'rate-limit', dependencies: ['store', 'errors'] },
);
