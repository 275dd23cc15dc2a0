import fp from 'fastify-plugin';
import type { PaymentGateway } from './gateways/gateway.js';
import { sandboxGateway } from './gateways/sandbox.gateway.js';
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
  sandbox: boolean;
  sandboxSecret?: string | undefined;
};

export default fp<PaymentsOptions>(
  async (fastify, { now = Date.now, publicUrl, sandbox, sandboxSecret }) => {
    const gateways: PaymentGateway[] = sandbox ? [sandboxGateway(sandboxSecret)] : [];
    fastify.decorate(
      'payments',
      new PaymentsService({
        db: fastify.db,
        repository: new PaymentsRepository(fastify.db),
        orders: fastify.orders,
        gateways,
        publicUrl,
        now,
      }),
    );
    await fastify.register(paymentsRoutes);
  },
  { name: 'payments', dependencies: ['db', 'auth', 'orders'] },
);
