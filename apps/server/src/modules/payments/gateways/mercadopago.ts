import { ORDER_NO_PATTERN, type RequestLanguage } from '@mutenet/contract';
import {
  InvalidWebhookSignatureError,
  MercadoPagoConfig as MercadoPagoClientConfig,
  MPNotFoundError,
  Payment,
  PaymentRefund,
  Preference,
  SignatureFailureReason,
  WebhookSignatureValidator,
} from 'mercadopago';
import { AppConfig } from 'mercadopago/dist/utils/config/index.js';
import { toMajor } from '../../../lib/money.js';
import type { MercadoPagoConfig } from '../../../plugins/external/env.js';
import type { GatewayOutcome } from '../../orders/orders.service.js';
import {
  GATEWAY_TIMEOUT_MS,
  GatewayUnavailable,
  NotificationRejected,
  type PaymentEvent,
  type PaymentGateway,
} from './gateway.js';

const NAMES: Record<RequestLanguage, string> = {
  en: 'Pix, cards and local methods (Mercado Pago)',
  'pt-BR': 'Pix, cartões e meios locais (Mercado Pago)',
  'zh-Hans': 'Pix、银行卡及本地支付方式（Mercado Pago）',
};

/**
 * The SDK has no host option, and calls the global fetch itself: every client builds its URLs from this one static
 * setting (declared read-only, a plain property at run time). Tests point it at a local fake (MERCADOPAGO_API_URL);
 * in production it stays Mercado Pago's own.
 */
const sdkSettings = AppConfig as { BASE_URL: string };
const MERCADOPAGO_API = sdkSettings.BASE_URL;

/**
 * How old a notification's signature may be. A notification carries only a payment id, which is read back from
 * Mercado Pago, so a replayed one cannot change anything by itself; refusing old ones keeps a captured notification
 * from being replayed at will to make us call Mercado Pago, as its documentation advises. Ten minutes leaves room for
 * clock drift and delivery delays; a genuine one refused as stale is still learnt by reconciliation.
 */
const SIGNATURE_TOLERANCE_SECONDS = 600;

/** Mercado Pago's payment statuses as ours. */
const OUTCOMES = new Map<string, GatewayOutcome>([
  ['approved', 'success'],
  ['authorized', 'doing'],
  ['pending', 'doing'],
  ['in_process', 'doing'],
  ['rejected', 'failed'],
  ['cancelled', 'cancel'],
  ['refunded', 'refunded'],
  ['charged_back', 'rejected'],
  // in_mediation (the buyer opened a dispute) has no outcome: the money is held until Mercado Pago decides, and the
  // payment then moves to approved (kept), refunded or charged_back (both end the package).
]);

/** What this module reads of a payment, as GET /v1/payments/:id and the search answer it. */
type MercadoPagoPayment = {
  id?: string | number;
  status?: string;
  external_reference?: string;
  transaction_amount?: number;
  transaction_amount_refunded?: number;
  currency_id?: string;
};

type Account = {
  currency: string;
  webhookSecret: string;
  test: boolean;
  preferences: Preference;
  payments: Payment;
  refunds: PaymentRefund;
};

/** A payment's events: none for a state we do not act on, for a partial refund, or for a payment not of an order. */
function eventsOf(payment: MercadoPagoPayment): PaymentEvent[] {
  const status = payment.status ?? '';
  const outcome = OUTCOMES.get(status);
  const orderNo = payment.external_reference ?? '';
  // The account may also take payments the panel did not start: they are not ours to act on.
  if (!outcome || payment.id === undefined || !ORDER_NO_PATTERN.test(orderNo)) return [];
  // A partial refund leaves the payment approved or, once all of it is refunded in parts, refunded: only a refund of
  // the whole amount ends the package.
  if (outcome === 'refunded' && payment.transaction_amount_refunded !== payment.transaction_amount) return [];
  const amount = payment.transaction_amount;
  return [
    {
      eventId: `${payment.id}:${status}`,
      orderNo,
      outcome,
      // JSON numbers print back as the decimal Mercado Pago sent ("24.9", "4990").
      amount: typeof amount === 'number' && Number.isFinite(amount) ? String(amount) : null,
      currency: payment.currency_id?.toUpperCase() ?? null,
      paymentRef: String(payment.id),
    },
  ];
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** What a notification names: its topic and the resource's id, from Webhooks' body or the older IPN form. */
function readNotification(rawBody: string, query: Record<string, string | undefined>) {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new NotificationRejected('a Mercado Pago notification that is not JSON');
  }
  if (!body || typeof body !== 'object') {
    throw new NotificationRejected('a Mercado Pago notification that is not an object');
  }
  const fields = body as { type?: unknown; topic?: unknown; data?: { id?: unknown }; resource?: unknown };
  const topic = query.type ?? query.topic ?? fields.type ?? fields.topic;
  const rawId = query['data.id'] ?? query.id ?? fields.data?.id ?? fields.resource;
  if (typeof topic !== 'string' || (typeof rawId !== 'string' && typeof rawId !== 'number')) {
    throw new NotificationRejected('a Mercado Pago notification without a topic and an id');
  }
  const id = String(rawId);
  if (id.length === 0 || id.length > 64) throw new NotificationRejected('a Mercado Pago notification with a bad id');
  // The signed manifest takes the id in lower case when it is alphanumeric (Mercado Pago's rule).
  return { topic, id: /^[a-z0-9]+$/i.test(id) ? id.toLowerCase() : id };
}

/**
 * The notification address a preference names, asking for Webhooks notifications only: without `source_news`,
 * Mercado Pago also sends the older IPN ones there, which its secret signature does not sign (they would be refused).
 */
function webhooksOnly(notifyUrl: string): string {
  const url = new URL(notifyUrl);
  url.searchParams.set('source_news', 'webhooks');
  return url.toString();
}

/**
 * Mercado Pago Checkout Pro through the official SDK: one account (access token and webhook secret) per currency, as
 * an account takes only its own country's currency.
 */
export function mercadoPagoGateway(config: MercadoPagoConfig): PaymentGateway {
  const apiUrl = (config.apiUrl ?? MERCADOPAGO_API).replace(/\/+$/, '');
  const accounts = new Map<string, Account>(
    config.accounts.map((account) => {
      // No retries: the SDK's own back-off (1 s, 2 s, 4 s) would outlast the time a gateway call may take.
      const client = new MercadoPagoClientConfig({
        accessToken: account.accessToken,
        options: { timeout: GATEWAY_TIMEOUT_MS, maxRetries: 0 },
      });
      return [
        account.currency.toUpperCase(),
        {
          currency: account.currency.toUpperCase(),
          webhookSecret: account.webhookSecret,
          test: account.accessToken.startsWith('TEST-'),
          preferences: new Preference(client),
          payments: new Payment(client),
          refunds: new PaymentRefund(client),
        },
      ];
    }),
  );

  /**
   * One call to Mercado Pago, given up after GATEWAY_TIMEOUT_MS. The SDK's own time-out covers only the wait for the
   * answer's headers, not its body, hence the deadline here too. The base URL is set just before the SDK reads it,
   * in the same synchronous step, so each gateway's calls go to its own URL.
   */
  async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new GatewayUnavailable(`Mercado Pago: ${what} had no answer in ${GATEWAY_TIMEOUT_MS} ms`)),
        GATEWAY_TIMEOUT_MS,
      );
    });
    try {
      sdkSettings.BASE_URL = apiUrl;
      return await Promise.race([work(), deadline]);
    } catch (error) {
      if (error instanceof GatewayUnavailable) throw error;
      // The SDK's errors carry the API's status and message, never the access token.
      const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
      const message = error instanceof Error ? error.message : String(error);
      throw new GatewayUnavailable(`Mercado Pago: ${what} failed (${status ?? 'no answer'}): ${message}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  function accountFor(currency: string): Account {
    const account = accounts.get(currency.toUpperCase());
    if (!account) throw new GatewayUnavailable(`Mercado Pago has no account for ${currency}`);
    return account;
  }

  /** The account whose secret signed the notification; refused when none did, or when the signature is old. */
  function signer(headers: Record<string, string | string[] | undefined>, dataId: string): Account {
    for (const account of accounts.values()) {
      try {
        WebhookSignatureValidator.validate({
          xSignature: header(headers, 'x-signature'),
          xRequestId: header(headers, 'x-request-id'),
          dataId,
          secret: account.webhookSecret,
          toleranceSeconds: SIGNATURE_TOLERANCE_SECONDS,
        });
        return account;
      } catch (error) {
        if (!(error instanceof InvalidWebhookSignatureError)) throw error;
        // Another account's secret may have signed it; any other failure is the same for every secret.
        if (error.reason !== SignatureFailureReason.SignatureMismatch) {
          throw new NotificationRejected(`Mercado Pago notification: ${error.reason}`);
        }
      }
    }
    throw new NotificationRejected('Mercado Pago notification: no account signed it');
  }

  return {
    id: 'mercadopago',
    name: (language) => NAMES[language],
    takes: (currency) => accounts.has(currency.toUpperCase()),

    async start(order, context) {
      const account = accountFor(order.currency);
      const preference = await call('creating a preference', () =>
        account.preferences.create({
          body: {
            items: [
              {
                id: order.no,
                title: order.description,
                quantity: 1,
                // 2490 with 2 decimals is 24.9, which JSON writes as the exact decimal.
                unit_price: toMajor(order.amountMinor, order.decimals),
                currency_id: account.currency,
              },
            ],
            payer: { email: order.email },
            external_reference: order.no,
            metadata: { order_no: order.no },
            back_urls: { success: context.returnUrl, pending: context.returnUrl, failure: context.returnUrl },
            auto_return: 'approved',
            notification_url: webhooksOnly(context.notifyUrl),
            expires: true,
            expiration_date_to: new Date(order.dueAt).toISOString(),
          },
          // One preference per order: starting again (a second click, a retry) gets the same one back.
          requestOptions: { idempotencyKey: `mutenet-preference-${order.no}` },
        }),
      );
      const redirect = account.test ? preference.sandbox_init_point : preference.init_point;
      if (!redirect || !preference.id)
        throw new GatewayUnavailable('Mercado Pago answered a preference without a page');
      return { redirect, reference: preference.id };
    },

    // Mercado Pago signs `data.id` as found in the notification URL's query.
    async verify(request) {
      const notification = readNotification(request.rawBody, request.query ?? {});
      const account = signer(request.headers, notification.id);
      // Merchant orders, chargebacks and the rest: the payment's own notification says what we act on.
      if (notification.topic !== 'payment') return [];
      const payment = await call('reading a notified payment', () =>
        account.payments.get({ id: notification.id }),
      ).catch((error: unknown) => {
        // A definite "no such payment" from the account whose secret signed it: nothing to trust, not an outage.
        if (error instanceof GatewayUnavailable && error.cause instanceof MPNotFoundError) {
          throw new NotificationRejected('Mercado Pago notification: the signing account has no such payment');
        }
        throw error;
      });
      return eventsOf(payment);
    },

    async status({ orderNo, currency }) {
      const account = accountFor(currency);
      const found = await call('searching an order’s payments', () =>
        account.payments.search({
          options: { external_reference: orderNo, sort: 'date_created', criteria: 'asc', limit: 50 },
        }),
      );
      return (found.results ?? []).flatMap((payment) => eventsOf(payment));
    },

    async refund({ orderNo, paymentRef, currency }) {
      const account = accountFor(currency);
      await call('refunding a payment', () =>
        account.refunds.total({
          payment_id: paymentRef,
          requestOptions: { idempotencyKey: `mutenet-refund-${orderNo}-${paymentRef}` },
        }),
      );
    },
  };
}
