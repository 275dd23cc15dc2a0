import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/app-error.js';

/**
 * Request limits, declared by each route in `config.rateLimit` (`max`, `timeWindow`, and a `keyGenerator` where a
 * route counts by something else than the client's address). Counted in Redis when there is one, so that every
 * instance shares them. Counted after validation (preHandler), so that only well-formed attempts use the budget.
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
