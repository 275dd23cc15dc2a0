import type { PaymentGatewayId, PaymentsConfig } from '../../../plugins/external/env.js';
import { btcpayGateway } from './btcpay.js';
import type { PaymentGateway } from './gateway.js';
import { mercadoPagoGateway } from './mercadopago.js';
import { sandboxGateway } from './sandbox.gateway.js';
import { stripeGateway } from './stripe.js';

const FACTORIES: Record<PaymentGatewayId, (config: PaymentsConfig) => PaymentGateway | undefined> = {
  stripe: ({ stripe }) => stripe && stripeGateway(stripe),
  mercadopago: ({ mercadopago }) => mercadopago && mercadoPagoGateway(mercadopago),
  btcpay: ({ btcpay }) => btcpay && btcpayGateway(btcpay),
  sandbox: ({ sandboxSecret }) => sandboxGateway(sandboxSecret),
};

/** The configured gateways, in the operator's order (`PAYMENT_GATEWAYS`, else Stripe, Mercado Pago, BTCPay, sandbox). */
export function configuredGateways(config: PaymentsConfig): PaymentGateway[] {
  return config.order.map((id) => FACTORIES[id](config)).filter((gateway) => gateway !== undefined);
}
