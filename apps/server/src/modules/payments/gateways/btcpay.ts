import { createHmac } from 'node:crypto';
import { ORDER_NO_PATTERN, type RequestLanguage } from '@mutenet/contract';
import { z } from 'zod';
import { sameSecret } from '../../../lib/secrets.js';
import type { BtcpayConfig } from '../../../plugins/external/env.js';
import type { GatewayOutcome } from '../../orders/orders.service.js';
import {
  GATEWAY_TIMEOUT_MS,
  GatewayUnavailable,
  NotificationRejected,
  type PaymentEvent,
  type PaymentGateway,
} from './gateway.js';

/**
 * BTCPay Server, self-hosted crypto payments, through its Greenfield REST API (no SDK: a few JSON calls). An
 * invoice per order, priced in the order's currency; BTCPay converts to the coin the customer picks.
 *
 * How its states become ours:
 * - Processing (paid, waiting for confirmations) → `doing`; Settled (confirmed) → `success`.
 * - Expired unpaid → `cancel` (the customer walked away: nothing failed); expired after a partial payment →
 *   `failed` (a payment was tried and fell short).
 * - Invalid set by BTCPay itself (payments that did not confirm in time; it never invalidates a settled invoice)
 *   → `failed`. Invalid marked by the operator → `rejected`, crypto's nearest thing to a chargeback: BTCPay lets a
 *   settled invoice be marked invalid only when it was marked settled by hand, i.e. the operator takes back a
 *   payment they had vouched for. The invoice does not say whether it was settled before it was marked invalid;
 *   on an order that was never paid there is nothing to take back, and the lifecycle rejects only a success.
 * Notifications carry no amount, so each one is read back from the invoice (the source of truth, also for the
 * order number and price); its event id names the invoice and the state, `${invoiceId}:${type}`, so a redelivery
 * (new deliveryId), a replay, and reconciliation learning the same state are one event. BTCPay's signature has no
 * time in it, and none is checked: a stale or replayed delivery is read back and applied once like any other, and
 * the operator's "Redeliver" in BTCPay may come days later.
 */

/** BTCPay's header: `sha256=` and the lower-case hex HMAC-SHA256 of the raw body with the webhook's secret. */
export const BTCPAY_SIGNATURE_HEADER = 'btcpay-sig';

export function signBtcpay(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

const NAMES: Record<RequestLanguage, string> = {
  en: 'Bitcoin and crypto (BTCPay)',
  'pt-BR': 'Bitcoin e criptomoedas (BTCPay)',
  'zh-Hans': '比特币与加密货币（BTCPay）',
};

/** The checkout's language codes BTCPay knows (its locales), from ours. */
const CHECKOUT_LANGUAGES: Record<RequestLanguage, string> = { en: 'en', 'pt-BR': 'pt-BR', 'zh-Hans': 'zh-SP' };

/**
 * A refund is a pull payment the buyer claims with an address of their own. `CurrentRate`: the fiat value they
 * paid, in the coin they paid with, at today's rate, so neither side carries the rate's move since the payment; its
 * claims are approved automatically when the key may create pull payments (`Fiat` would wait for the operator to
 * approve each claim in BTCPay).
 */
const REFUND_VARIANT = 'CurrentRate';

const DecimalText = z.string().regex(/^\d+(\.\d+)?$/);

const InvoiceSchema = z.looseObject({
  id: z.string().min(1).max(64),
  storeId: z.string(),
  amount: DecimalText,
  currency: z.string().regex(/^[A-Za-z]{3}$/),
  checkoutLink: z.url(),
  status: z.enum(['New', 'Processing', 'Expired', 'Invalid', 'Settled']),
  additionalStatus: z.string().nullish(),
  // Free-form: the store's own apps put what they like there, ours puts the order number in `orderId`.
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
type Invoice = z.infer<typeof InvoiceSchema>;

const PullPaymentSchema = z.looseObject({ id: z.string().min(1) });

const WebhookSchema = z.looseObject({
  deliveryId: z.string().min(1).max(128),
  webhookId: z.string().max(128),
  originalDeliveryId: z.string().max(128).nullish(),
  isRedelivery: z.boolean().optional(),
  type: z.enum(['InvoiceProcessing', 'InvoiceSettled', 'InvoiceExpired', 'InvoiceInvalid']),
  timestamp: z.number(),
  storeId: z.string().max(64),
  invoiceId: z.string().min(1).max(64),
  manuallyMarked: z.boolean().optional(),
  partiallyPaid: z.boolean().optional(),
});

/** The invoice states we act on, by their webhook type: the event id's suffix, the same from webhooks and reads. */
type StateType = z.infer<typeof WebhookSchema>['type'];
const TypeOnlySchema = z.looseObject({ type: z.string() });

/** Our order number on an invoice, when it is one of ours (the store's own apps make invoices too). */
function orderNoOf(invoice: Invoice): string | undefined {
  const orderId = invoice.metadata?.orderId;
  return typeof orderId === 'string' && ORDER_NO_PATTERN.test(orderId) ? orderId : undefined;
}

/** "499" with 2 decimals → "4.99", exactly (Greenfield takes amounts as decimal strings in major units). */
function majorText(amountMinor: number, decimals: number): string {
  const digits = String(amountMinor).padStart(decimals + 1, '0');
  return decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
}

export function btcpayGateway(config: BtcpayConfig): PaymentGateway {
  const storePath = `${config.url}/api/v1/stores/${encodeURIComponent(config.storeId)}`;

  /** One Greenfield call; the key goes only in its header, never in a message. 404 is the caller's to read. */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    let response: Response;
    try {
      response = await fetch(`${storePath}${path}`, {
        method,
        headers: {
          authorization: `token ${config.apiKey}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
      });
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'could not be reached';
      throw new GatewayUnavailable(`BTCPay ${method} ${path.split('/')[1] ?? ''} ${reason}`);
    }
    let json: unknown = null;
    try {
      json = await response.json();
    } catch {
      // The time-out also ends a body that never finishes; a missing or broken body is checked below.
      if (response.ok) throw new GatewayUnavailable(`BTCPay ${method} answered ${response.status} without JSON`);
    }
    if (response.status === 404) return { status: 404, json };
    if (!response.ok) throw new GatewayUnavailable(`BTCPay ${method} answered ${response.status}`);
    return { status: response.status, json };
  }

  function parsed<T>(schema: z.ZodType<T>, json: unknown, what: string): T {
    const result = schema.safeParse(json);
    if (!result.success) throw new GatewayUnavailable(`BTCPay answered an unexpected ${what}`);
    return result.data;
  }

  /** The invoice, or undefined when BTCPay does not know it (in this store). */
  async function invoice(id: string): Promise<Invoice | undefined> {
    const { status, json } = await call('GET', `/invoices/${encodeURIComponent(id)}`);
    if (status === 404) return undefined;
    const found = parsed(InvoiceSchema, json, 'invoice');
    return found.storeId === config.storeId ? found : undefined;
  }

  function outcomeOf(type: StateType, found: Invoice, manuallyMarked: boolean, partiallyPaid: boolean) {
    const outcomes: Record<StateType, GatewayOutcome> = {
      InvoiceProcessing: 'doing',
      InvoiceSettled: 'success',
      InvoiceExpired: partiallyPaid ? 'failed' : 'cancel',
      InvoiceInvalid: manuallyMarked ? 'rejected' : 'failed',
    };
    return {
      eventId: `${found.id}:${type}`,
      orderNo: orderNoOf(found) ?? '',
      outcome: outcomes[type],
      amount: found.amount,
      currency: found.currency.toUpperCase(),
      paymentRef: found.id,
    } satisfies PaymentEvent;
  }

  return {
    id: 'btcpay',
    name: (language) => NAMES[language],
    takes: (currency) => config.currencies.includes(currency.toUpperCase()),

    async start(order, context) {
      const expirationMinutes = Math.max(1, Math.floor((order.dueAt - Date.now()) / 60_000));
      const { json } = await call('POST', '/invoices', {
        amount: majorText(order.amountMinor, order.decimals),
        currency: order.currency,
        metadata: { orderId: order.no, buyerEmail: order.email, itemDesc: order.description },
        checkout: {
          redirectURL: context.returnUrl,
          redirectAutomatically: true,
          expirationMinutes,
          defaultLanguage: CHECKOUT_LANGUAGES[context.language],
        },
      });
      const created = parsed(InvoiceSchema, json, 'invoice');
      return { redirect: created.checkoutLink, reference: created.id };
    },

    async verify({ headers, rawBody }) {
      const signature = headers[BTCPAY_SIGNATURE_HEADER];
      if (typeof signature !== 'string' || !sameSecret(signature, signBtcpay(config.webhookSecret, rawBody))) {
        throw new NotificationRejected('bad BTCPay-Sig signature');
      }
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        throw new NotificationRejected('not JSON');
      }
      const typed = TypeOnlySchema.safeParse(body);
      if (!typed.success) throw new NotificationRejected('malformed BTCPay webhook');
      // InvoiceCreated, InvoiceReceivedPayment, InvoicePaymentSettled, payouts…: genuine, and nothing to apply.
      if (!WebhookSchema.shape.type.safeParse(typed.data.type).success) return [];
      const event = WebhookSchema.safeParse(body);
      if (!event.success) throw new NotificationRejected('malformed BTCPay webhook');
      const { type, storeId, invoiceId, manuallyMarked = false, partiallyPaid = false } = event.data;
      // A webhook registered on another store signs with its own secret; a shared secret must not let it in either.
      if (storeId !== config.storeId) throw new NotificationRejected('a webhook of another BTCPay store');
      // The payload has no amount: the invoice is read back (an error here answers 503, and BTCPay redelivers).
      const found = await invoice(invoiceId);
      if (!found) throw new NotificationRejected('an invoice this store does not have');
      // Invoices of the store's own apps (point of sale, payment requests) carry no order number of ours.
      if (!orderNoOf(found)) return [];
      return [outcomeOf(type, found, manuallyMarked, partiallyPaid)];
    },

    async status({ reference }) {
      const found = await invoice(reference);
      if (!found || !orderNoOf(found)) return [];
      const marked = found.additionalStatus === 'Marked';
      switch (found.status) {
        case 'New':
          return [];
        case 'Processing':
          return [outcomeOf('InvoiceProcessing', found, marked, false)];
        case 'Settled':
          return [outcomeOf('InvoiceSettled', found, marked, false)];
        case 'Expired':
          // Paid after it expired: the operator decides in BTCPay (marks it settled, which notifies, or refunds).
          if (found.additionalStatus === 'PaidLate') return [];
          return [outcomeOf('InvoiceExpired', found, marked, found.additionalStatus === 'PaidPartial')];
        case 'Invalid':
          return [outcomeOf('InvoiceInvalid', found, marked, false)];
      }
    },

    async refund({ orderNo, paymentRef }) {
      const { status, json } = await call('POST', `/invoices/${encodeURIComponent(paymentRef)}/refund`, {
        name: `Refund ${orderNo}`,
        description: `Refund of order ${orderNo}`,
        refundVariant: REFUND_VARIANT,
      });
      if (status === 404) throw new GatewayUnavailable('BTCPay does not know the invoice to refund');
      parsed(PullPaymentSchema, json, 'pull payment');
    },
  };
}
