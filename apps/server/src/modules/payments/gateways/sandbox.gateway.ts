import { createHmac } from 'node:crypto';
import type { RequestLanguage, SandboxAction } from '@mutenet/contract';
import { z } from 'zod';
import { sameSecret } from '../../../lib/secrets.js';
import { GATEWAY_OUTCOMES, type GatewayOutcome } from '../../orders/orders.service.js';
import { NotificationRejected, type PaymentEvent, type PaymentGateway } from './gateway.js';

export const SANDBOX_OUTCOME: Record<SandboxAction, GatewayOutcome> = {
  approve: 'success',
  decline: 'failed',
  pending: 'doing',
};

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

const NAMES: Record<RequestLanguage, string> = {
  en: 'Sandbox (test payments)',
  'pt-BR': 'Sandbox (pagamentos de teste)',
  'zh-Hans': '沙盒（测试支付）',
};

const NotificationSchema = z.object({
  eventId: z.string().min(1).max(128),
  orderNo: z.string().max(64),
  outcome: z.enum(GATEWAY_OUTCOMES),
  /** Major units, as the other gateways report them: "4.99". */
  amount: z.string().max(24).nullable().default(null),
  currency: z.string().max(3).nullable().default(null),
});

export function signSandbox(secret: string, rawBody: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * The built-in test gateway: the checkout page shows approve, decline and pending buttons, which reach the same
 * notification path a real gateway uses. Its signed webhook takes JSON signed with HMAC-SHA256 of the body. It takes
 * every currency, keeps no payments of its own to ask about, and refunds nothing (no money moved).
 */
export function sandboxGateway(secret: string | undefined): PaymentGateway {
  return {
    id: 'sandbox',
    name: (language) => NAMES[language],
    takes: () => true,
    start: async () => ({ redirect: null, reference: null }),
    status: async () => [],
    refund: async () => {},
    async verify({ headers, rawBody }): Promise<PaymentEvent[]> {
      const signature = headers[SANDBOX_SIGNATURE_HEADER];
      if (!secret) throw new NotificationRejected('the sandbox webhook has no secret configured');
      if (typeof signature !== 'string' || !sameSecret(signature, signSandbox(secret, rawBody))) {
        throw new NotificationRejected('bad signature');
      }
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        throw new NotificationRejected('not JSON');
      }
      const parsed = NotificationSchema.safeParse(body);
      if (!parsed.success) throw new NotificationRejected('malformed notification');
      const { eventId, orderNo, outcome, amount, currency } = parsed.data;
      return [{ eventId, orderNo, outcome, amount, currency, paymentRef: null }];
    },
  };
}
