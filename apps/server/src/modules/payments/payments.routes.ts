import { getCheckout, sandboxAction, startPayment } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';
import { GatewayUnavailable, NotificationRejected } from './gateways/gateway.js';

/** Limits on the checkout's actions per IP. */
export const CHECKOUT_LIMIT = { max: 60, timeWindow: 60_000 };

export default async function paymentsRoutes(fastify: FastifyInstance) {
  await fastify.register(checkoutRoutes);
  await fastify.register(notificationRoutes);
}

async function checkoutRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', fastify.authenticateCheckout);

  app.route({
    ...routeOf(getCheckout),
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(request, await fastify.payments.checkout(request.user.id, request.params.orderNo, request.language));
    },
  });

  app.route({
    ...routeOf(startPayment),
    config: { rateLimit: CHECKOUT_LIMIT },
    handler: async (request) => {
      const { orderNo } = request.params;
      return ok(request, await fastify.payments.start(request.user, orderNo, request.body.method, request.language));
    },
  });

  app.route({
    ...routeOf(sandboxAction),
    config: { rateLimit: CHECKOUT_LIMIT },
    handler: async (request) => {
      const { orderNo, action } = request.params;
      const { status } = await fastify.payments.sandbox(request.user.id, orderNo, action);
      return ok(request, { status });
    },
  });
}

/**
 * Gateways' signed webhooks: the raw body is kept, as the signature covers it byte for byte. Refused (400) when it
 * cannot be trusted or does not fit its order; 503 when the gateway could not be asked about it, so that the gateway
 * sends it again.
 */
async function notificationRoutes(fastify: FastifyInstance) {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/payment/notify/:gateway', {
    schema: {
      params: z.object({ gateway: z.string().max(32) }),
      querystring: z.record(z.string(), z.string().max(256)),
    },
    handler: async (request) => {
      try {
        const applied = await fastify.payments.notify(request.params.gateway, {
          headers: request.headers,
          rawBody: typeof request.body === 'string' ? request.body : '',
          query: request.query,
        });
        request.log.info({ gateway: request.params.gateway, ...applied }, 'payment notification');
        return ok(request, applied ?? { status: null, duplicate: false, applied: false });
      } catch (error) {
        if (error instanceof GatewayUnavailable) {
          request.log.warn({ gateway: request.params.gateway, reason: error.message }, 'payment notification deferred');
          throw new AppError('SERVICE_UNAVAILABLE');
        }
        if (!(error instanceof NotificationRejected)) throw error;
        request.log.warn({ gateway: request.params.gateway, reason: error.message }, 'payment notification refused');
        throw new AppError('BAD_REQUEST');
      }
    },
  });
}
