import { ORDER_NO_PATTERN, type RequestLanguage } from '@mutenet/contract';
import Stripe from 'stripe';
import type { StripeConfig } from '../../../plugins/external/env.js';
import type { GatewayOutcome } from '../../orders/orders.service.js';
import {
  GATEWAY_TIMEOUT_MS,
  type GatewayOrder,
  GatewayUnavailable,
  NotificationRejected,
  type PaymentEvent,
  type PaymentGateway,
} from './gateway.js';

const NAMES: Record<RequestLanguage, string> = {
  en: 'Card, Pix or OXXO (Stripe)',
  'pt-BR': 'Cartão, Pix ou OXXO (Stripe)',
  'zh-Hans': '银行卡、Pix 或 OXXO（Stripe）',
};

const LOCALES: Record<RequestLanguage, Stripe.Checkout.SessionCreateParams.Locale> = {
  en: 'en',
  'pt-BR': 'pt-BR',
  'zh-Hans': 'zh',
};

/** Stripe's zero-decimal currencies (docs.stripe.com/currencies#zero-decimal): amounts are whole units. */
const ZERO_DECIMAL = new Set('BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '));
/** Three-decimal currencies, whose amounts Stripe takes only in multiples of ten. */
const THREE_DECIMAL = new Set('BHD JOD KWD OMR TND'.split(' '));

/** A Checkout Session lives from 30 minutes to 24 hours after it is created; a minute's margin each side. */
const SESSION_MIN_MS = 31 * 60_000;
const SESSION_MAX_MS = 24 * 3600_000 - 60_000;

/** How many decimals Stripe's API amounts have in a currency (COP, PEN, BRL… two, as most; CLP none). */
export function stripeDecimals(currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  return THREE_DECIMAL.has(code) ? 3 : 2;
}

/** Our price (minor units with our decimals) in Stripe's minor units; null when Stripe cannot charge it exactly. */
export function toStripeAmount(amountMinor: number, decimals: number, currency: string): number | null {
  const shift = stripeDecimals(currency) - decimals;
  const amount = shift >= 0 ? amountMinor * 10 ** shift : amountMinor / 10 ** -shift;
  if (!Number.isSafeInteger(amount) || amount <= 0) return null;
  if (THREE_DECIMAL.has(currency.toUpperCase()) && amount % 10 !== 0) return null;
  return amount;
}

/** Stripe's amount as an exact decimal in major units: 1290 USD → "12.90", 4990 CLP → "4990", 500000 COP → "5000". */
export function fromStripeAmount(amount: number, currency: string): string {
  const places = stripeDecimals(currency);
  if (places === 0) return String(amount);
  const digits = String(amount).padStart(places + 1, '0');
  const whole = digits.slice(0, -places);
  const fraction = digits.slice(-places);
  // A whole amount is written whole, so that it also reads right where our catalogue keeps no decimals (COP).
  return /^0+$/.test(fraction) ? whole : `${whole}.${fraction}`;
}

const idOf = (value: string | { id: string } | null): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** What went wrong, for the log: the kind of Stripe error and its HTTP status, never the request or the key. */
function failure(error: unknown): string {
  if (error instanceof Stripe.errors.StripeError) {
    return `Stripe ${error.type}${error.statusCode ? ` ${error.statusCode}` : ''}${error.code ? ` (${error.code})` : ''}`;
  }
  return 'Stripe call failed';
}

/**
 * Stripe: a hosted Checkout Session per order. Cards pay at once; Pix (BRL) and OXXO (MXN), when the account has them
 * enabled, complete the session unpaid and are paid later (the order is `doing` until Stripe says so). The account's
 * dynamic payment methods choose what the page offers, so an operator enables Pix or OXXO in the dashboard only.
 */
export function stripeGateway(config: StripeConfig): PaymentGateway {
  const api = config.apiUrl ? new URL(config.apiUrl) : undefined;
  const stripe = new Stripe(config.secretKey, {
    timeout: GATEWAY_TIMEOUT_MS,
    // No retries: each call gives up within the gateway time-out; reconciliation and Stripe's webhook retries repeat.
    maxNetworkRetries: 0,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          protocol: api.protocol === 'http:' ? 'http' : 'https',
          ...(api.port ? { port: api.port } : {}),
        }
      : {}),
  });

  async function call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw new GatewayUnavailable(failure(error));
    }
  }

  function sessionEvent(eventId: string, session: Stripe.Checkout.Session, outcome: GatewayOutcome): PaymentEvent[] {
    // Our sessions carry the order in their metadata; a session another application of the same account started may
    // carry a reference of its own, which is not ours to refuse (Stripe would retry it for days).
    const reference = session.client_reference_id;
    const orderNo = session.metadata?.orderNo ?? (reference && ORDER_NO_PATTERN.test(reference) ? reference : null);
    if (!orderNo || session.mode !== 'payment') return [];
    return [
      {
        eventId,
        orderNo,
        outcome,
        amount:
          session.amount_total !== null && session.currency
            ? fromStripeAmount(session.amount_total, session.currency)
            : null,
        currency: session.currency?.toUpperCase() ?? null,
        paymentRef: idOf(session.payment_intent),
      },
    ];
  }

  /** The payment behind a charge or a dispute: the order number travels in its metadata (payment_intent_data). */
  async function paymentIntent(id: string): Promise<Stripe.PaymentIntent> {
    return call(() => stripe.paymentIntents.retrieve(id));
  }

  async function refundEvent(eventId: string, charge: Stripe.Charge): Promise<PaymentEvent[]> {
    // A partial refund leaves the package running: the operator decided to give part of the money back.
    if (!charge.refunded || charge.amount_refunded !== charge.amount) return [];
    const intentId = idOf(charge.payment_intent);
    let orderNo = charge.metadata?.orderNo;
    if (!orderNo && intentId) orderNo = (await paymentIntent(intentId)).metadata?.orderNo;
    if (!orderNo) return [];
    return [
      {
        eventId,
        orderNo,
        outcome: 'refunded',
        amount: fromStripeAmount(charge.amount, charge.currency),
        currency: charge.currency.toUpperCase(),
        paymentRef: intentId,
      },
    ];
  }

  /**
   * A chargeback ends the package as soon as Stripe takes the money back: when a dispute opens (card disputes
   * withdraw the funds then), when the funds of an inquiry that escalated are withdrawn, and when a dispute is lost.
   * An inquiry (`warning_…`) and a dispute won or prevented change nothing: the money is still the operator's.
   */
  async function disputeEvent(eventId: string, type: string, dispute: Stripe.Dispute): Promise<PaymentEvent[]> {
    const withdrawn =
      (type === 'charge.dispute.created' && !dispute.status.startsWith('warning_') && dispute.status !== 'prevented') ||
      type === 'charge.dispute.funds_withdrawn' ||
      (type === 'charge.dispute.closed' && dispute.status === 'lost');
    const intentId = idOf(dispute.payment_intent);
    if (!withdrawn || !intentId) return [];
    const intent = await paymentIntent(intentId);
    const orderNo = intent.metadata?.orderNo;
    if (!orderNo) return [];
    return [
      {
        eventId,
        orderNo,
        outcome: 'rejected',
        amount: fromStripeAmount(intent.amount, intent.currency),
        currency: intent.currency.toUpperCase(),
        paymentRef: intent.id,
      },
    ];
  }

  async function eventsOf(event: Stripe.Event): Promise<PaymentEvent[]> {
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        // Unpaid at completion: Pix or OXXO chosen, the money comes later (async_payment_succeeded or _failed).
        return sessionEvent(event.id, session, session.payment_status === 'paid' ? 'success' : 'doing');
      }
      case 'checkout.session.async_payment_succeeded':
        return sessionEvent(event.id, event.data.object, 'success');
      case 'checkout.session.async_payment_failed':
        return sessionEvent(event.id, event.data.object, 'failed');
      case 'checkout.session.expired':
        return sessionEvent(event.id, event.data.object, 'cancel');
      case 'charge.refunded':
        return refundEvent(event.id, event.data.object);
      case 'charge.dispute.created':
      case 'charge.dispute.funds_withdrawn':
      case 'charge.dispute.closed':
        return disputeEvent(event.id, event.type, event.data.object);
      default:
        return [];
    }
  }

  return {
    id: 'stripe',
    name: (language) => NAMES[language],
    takes: (currency) => config.currencies.includes(currency.toUpperCase()),

    async start(order: GatewayOrder, context) {
      const amount = toStripeAmount(order.amountMinor, order.decimals, order.currency);
      if (amount === null) {
        throw new GatewayUnavailable(
          `Stripe cannot charge ${order.amountMinor}/10^${order.decimals} ${order.currency}`,
        );
      }
      // Stripe's own clock decides the window, so the real time, not the panel's.
      const now = Date.now();
      const expiresAt = Math.min(Math.max(order.dueAt, now + SESSION_MIN_MS), now + SESSION_MAX_MS);
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: order.currency.toLowerCase(),
                unit_amount: amount,
                product_data: { name: order.description },
              },
            },
          ],
          customer_email: order.email,
          client_reference_id: order.no,
          metadata: { orderNo: order.no },
          // Copied to the PaymentIntent, where refunds and disputes find the order.
          payment_intent_data: { metadata: { orderNo: order.no } },
          // The customer pays the order's price in the order's currency, which every notification is checked against.
          adaptive_pricing: { enabled: false },
          success_url: context.returnUrl,
          cancel_url: context.returnUrl,
          locale: LOCALES[context.language],
          expires_at: Math.floor(expiresAt / 1000),
        }),
      );
      if (!session.url) throw new GatewayUnavailable('Stripe returned a session without a page');
      return { redirect: session.url, reference: session.id };
    },

    async verify({ headers, rawBody }) {
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string') throw new NotificationRejected('no Stripe-Signature header');
      let event: Stripe.Event;
      try {
        // Checks the HMAC of the raw body and that its timestamp is within the SDK's tolerance (5 minutes).
        event = stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
      } catch {
        throw new NotificationRejected('Stripe signature does not verify');
      }
      return eventsOf(event);
    },

    async status({ orderNo, reference }) {
      const session = await call(() =>
        stripe.checkout.sessions.retrieve(reference, { expand: ['payment_intent.latest_charge'] }),
      );
      const known = session.metadata?.orderNo ? session : { ...session, metadata: { ...session.metadata, orderNo } };
      const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
      if (session.status === 'expired') return sessionEvent(`${session.id}:expired`, known, 'cancel');
      if (session.status !== 'complete') return [];
      if (session.payment_status !== 'paid') {
        const failed = intent?.status === 'requires_payment_method' || intent?.status === 'canceled';
        return failed
          ? sessionEvent(`${session.id}:failed`, known, 'failed')
          : sessionEvent(`${session.id}:pending`, known, 'doing');
      }
      const events = sessionEvent(`${session.id}:paid`, known, 'success');
      const charge = intent && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
      if (charge) {
        const refunded = await refundEvent(`${session.id}:refunded`, {
          ...charge,
          metadata: { ...charge.metadata, orderNo: known.metadata?.orderNo ?? orderNo },
        });
        events.push(...refunded);
      }
      return events;
    },

    async refund({ orderNo, paymentRef }) {
      try {
        // One refund per order, however often the operator asks: Stripe answers a repeat with the first refund.
        await stripe.refunds.create({ payment_intent: paymentRef }, { idempotencyKey: `refund-${orderNo}` });
      } catch (error) {
        // Refunded already (from the dashboard, or by this key more than a day ago, when Stripe forgets it): the money
        // is back with the customer, which is what was asked.
        if (error instanceof Stripe.errors.StripeError && error.code === 'charge_already_refunded') return;
        throw new GatewayUnavailable(failure(error));
      }
    },
  };
}
