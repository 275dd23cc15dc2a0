import fp from 'fastify-plugin';
import { Counter } from 'prom-client';
import type { PaymentsConfig } from '../../plugins/external/env.js';
import { configuredGateways } from './gateways/index.js';
import { PaymentsRepository } from './payments.repository.js';
import paymentsRoutes from './payments.routes.js';
import { PaymentsService } from './payments.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentsService;
  }
}

export type PaymentsOptions = {
  now?: () => number;
  publicUrl: string;
  production: boolean;
  config: PaymentsConfig;
};

/** How often each instance asks the gateways about unsettled payments. */
const RECONCILE_EVERY_MS = 60_000;

export default fp<PaymentsOptions>(
  async (fastify, { now = Date.now, publicUrl, production, config }) => {
    const registers = [fastify.metrics.registry];
    const notifications = new Counter({
      name: 'mutenet_payment_notifications_total',
      help: 'Gateway notifications received, by gateway and what became of them.',
      labelNames: ['gateway', 'result'],
      registers,
    });
    const checks = new Counter({
      name: 'mutenet_payment_reconcile_checks_total',
      help: 'Started payments reconciliation asked a gateway about, by gateway and result (changed: it fixed the order).',
      labelNames: ['gateway', 'result'],
      registers,
    });
    const service = new PaymentsService({
      db: fastify.db,
      repository: new PaymentsRepository(fastify.db),
      orders: fastify.orders,
      gateways: configuredGateways(config),
      publicUrl,
      now,
      counters: {
        notification: (gateway, result) => notifications.inc({ gateway, result }),
        check: (gateway, result) => checks.inc({ gateway, result }),
      },
    });
    if (service.takesRealPayments()) {
      fastify.jobs.every('payments-reconcile', RECONCILE_EVERY_MS, () => service.reconcile());
    } else if (production) {
      fastify.log.warn('no payment gateway is configured: the checkout tells customers that payment is unavailable');
    }
    fastify.decorate('payments', service);
    await fastify.register(paymentsRoutes);
  },
  { name: 'payments', dependencies: ['db', 'auth', 'orders', 'jobs', 'metrics'] },
);
