import {
  adminChargebackOrder,
  adminGetOrder,
  adminGetOrders,
  adminMarkOrderPaid,
  adminRefundOrder,
  type RequestLanguage,
} from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';
import { RefundFailed } from '../payments/payments.service.js';
import type { OrderRow } from './orders.service.js';

/** The console's orders routes, under ADMIN_PATH: lists and pages from the orders service, changes through payments. */
export default async function ordersConsoleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  /** The order a change left, as the list shows it. */
  const view = async (row: OrderRow, language: RequestLanguage) =>
    (await fastify.orders.adminViews([row], language))[0]!;

  app.route({
    ...routeOf(adminGetOrders),
    onRequest: fastify.operatorCan('orders.read'),
    handler: async (request) => {
      const { rows, next } = await fastify.orders.adminPage(request.query);
      return ok(request, { orders: await fastify.orders.adminViews(rows, request.language), next });
    },
  });

  app.route({
    ...routeOf(adminGetOrder),
    onRequest: fastify.operatorCan('orders.read'),
    handler: async (request) => ok(request, await fastify.payments.orderDetail(request.params.no, request.language)),
  });

  app.route({
    ...routeOf(adminMarkOrderPaid),
    onRequest: fastify.operatorCan('orders.markPaid'),
    handler: async (request) =>
      ok(request, await view(await fastify.payments.markPaid(request.params.no, request.audit), request.language)),
  });

  app.route({
    ...routeOf(adminRefundOrder),
    onRequest: fastify.operatorCan('orders.refund'),
    handler: async (request) => {
      const atGateway = !request.body.alreadyRefunded;
      let row: OrderRow;
      try {
        row = await fastify.payments.refund(request.params.no, { atGateway }, request.audit);
      } catch (error) {
        if (!(error instanceof RefundFailed)) throw error;
        request.log.warn({ err: error }, 'refund refused by the gateway');
        throw new AppError('REFUND_FAILED');
      }
      return ok(request, await view(row, request.language));
    },
  });

  app.route({
    ...routeOf(adminChargebackOrder),
    onRequest: fastify.operatorCan('orders.chargeback'),
    handler: async (request) =>
      ok(request, await view(await fastify.payments.chargeback(request.params.no, request.audit), request.language)),
  });
}
