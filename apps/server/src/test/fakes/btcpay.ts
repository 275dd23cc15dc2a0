import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local BTCPay Server for tests: the Greenfield calls our gateway makes (create and read an invoice, refund it),
 * answered with the shapes of its API reference (`/api/v1/stores/{storeId}/invoices…`, `token {apiKey}` auth,
 * ProblemDetails-like errors), a hosted checkout page per invoice, and the store's webhook, signed as BTCPay signs
 * it: `BTCPay-Sig: sha256=<hex HMAC-SHA256 of the body with the webhook's secret>`.
 *
 * Greenfield webhooks are registered per store, not per invoice: the test tells the fake where its one webhook
 * posts (`fake.webhookUrl = app.url + '/payment/notify/btcpay'`).
 */

export type InvoiceStatus = 'New' | 'Processing' | 'Expired' | 'Invalid' | 'Settled';
export type AdditionalStatus = 'None' | 'PaidLate' | 'PaidPartial' | 'Marked' | 'Invalid' | 'PaidOver';

export type FakeInvoice = {
  id: string;
  storeId: string;
  amount: string;
  paidAmount: string;
  currency: string;
  type: 'Standard';
  checkoutLink: string;
  createdTime: number;
  expirationTime: number;
  monitoringExpiration: number;
  status: InvoiceStatus;
  additionalStatus: AdditionalStatus;
  availableStatusesForManualMarking: InvoiceStatus[];
  archived: boolean;
  metadata: Record<string, unknown>;
  checkout: Record<string, unknown>;
  receipt: { enabled: boolean; showQR: boolean | null; showPayments: boolean | null };
};

export type FakePullPayment = {
  id: string;
  invoiceId: string;
  name: string;
  description: string;
  currency: string;
  amount: string;
  refundVariant: string;
  autoApproveClaims: boolean;
  archived: boolean;
  viewLink: string;
};

export type Delivery = { body: Record<string, unknown>; raw: string; status: number | null; answer: unknown };

export type FakeBtcpayOptions = { storeId?: string; apiKey?: string; webhookSecret?: string };

/** `normal` answers; `error` answers every API call 500; `hang` never answers one (the hosted page still works). */
export type FakeMode = 'normal' | 'error' | 'hang';

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** BTCPay's ids: base58-looking, 22 characters. */
const newId = () => randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 22);

export async function startFakeBtcpay({
  storeId = 'FakeStore1111111111111111111111111111111111',
  apiKey = 'fakegreenfieldapikey0000000000000000000000',
  webhookSecret = 'fake-btcpay-webhook-secret',
}: FakeBtcpayOptions = {}) {
  const invoices = new Map<string, FakeInvoice>();
  const pullPayments: FakePullPayment[] = [];
  const deliveries: Delivery[] = [];
  /** Every API call, for assertions on what our module asked: method, path and the authorization it sent. */
  const requests: { method: string; path: string; authorization: string | undefined; body: unknown }[] = [];
  const hanging = new Set<http.ServerResponse>();
  const webhookId = newId();

  const fake = {
    url: '',
    storeId,
    apiKey,
    webhookSecret,
    /** Where the store's webhook posts; unset, nothing is delivered. */
    webhookUrl: undefined as string | undefined,
    mode: 'normal' as FakeMode,
    /** While set, deliveries are recorded but never sent: notifications lost on the way. */
    loseNotifications: false,
    invoices,
    pullPayments,
    deliveries,
    requests,

    invoice(id: string): FakeInvoice {
      const found = invoices.get(id);
      if (!found) throw new Error(`the fake BTCPay has no invoice ${id}`);
      return found;
    },
    /** The invoice made for one of our orders (metadata.orderId). */
    invoiceOf(orderNo: string): FakeInvoice {
      const found = [...invoices.values()].reverse().find((invoice) => invoice.metadata.orderId === orderNo);
      if (!found) throw new Error(`the fake BTCPay has no invoice for order ${orderNo}`);
      return found;
    },

    /** The customer paid the full amount; it waits for confirmations (InvoiceReceivedPayment, InvoiceProcessing). */
    async payUnconfirmed(id: string) {
      const invoice = fake.invoice(id);
      invoice.paidAmount = invoice.amount;
      setStatus(invoice, 'Processing', 'None');
      await fake.notify('InvoiceReceivedPayment', id, { afterExpiration: false, paymentMethod: 'BTC-CHAIN' });
      await fake.notify('InvoiceProcessing', id, { overPaid: false });
    },
    /** The payment got its confirmations (InvoicePaymentSettled, InvoiceSettled). */
    async confirm(id: string) {
      const invoice = fake.invoice(id);
      setStatus(invoice, 'Settled', 'None');
      await fake.notify('InvoicePaymentSettled', id, { afterExpiration: false, paymentMethod: 'BTC-CHAIN' });
      await fake.notify('InvoiceSettled', id, { manuallyMarked: false, overPaid: false });
    },
    /** Paid and confirmed: Processing, then Settled, each notified. */
    async settle(id: string) {
      await fake.payUnconfirmed(id);
      await fake.confirm(id);
    },
    /** The invoice ran out of time, unpaid or (`partiallyPaid`) short. */
    async expire(id: string, { partiallyPaid = false } = {}) {
      const invoice = fake.invoice(id);
      if (partiallyPaid) invoice.paidAmount = (Number(invoice.amount) / 2).toString();
      setStatus(invoice, 'Expired', partiallyPaid ? 'PaidPartial' : 'None');
      await fake.notify('InvoiceExpired', id, { partiallyPaid });
    },
    /** Paid but never confirmed in time: BTCPay itself invalidates it. */
    async failConfirmations(id: string) {
      setStatus(fake.invoice(id), 'Invalid', 'None');
      await fake.notify('InvoiceInvalid', id, { manuallyMarked: false });
    },
    /** The operator marks the invoice settled by hand (money received outside the checkout). */
    async markSettled(id: string) {
      setStatus(fake.invoice(id), 'Settled', 'Marked');
      await fake.notify('InvoiceSettled', id, { manuallyMarked: true, overPaid: false });
    },
    /** The operator marks it invalid by hand: after a settlement by hand, the payment is taken back. */
    async markInvalid(id: string) {
      const invoice = fake.invoice(id);
      if (!canMarkInvalid(invoice)) throw new Error(`BTCPay refuses to mark a ${invoice.status} invoice invalid`);
      setStatus(invoice, 'Invalid', 'Marked');
      await fake.notify('InvoiceInvalid', id, { manuallyMarked: true });
    },
    /** The operator refunds in BTCPay: a pull payment, with no invoice webhook (BTCPay sends none for refunds). */
    refund(id: string, refundVariant = 'CurrentRate') {
      return createPullPayment(fake.invoice(id), { refundVariant });
    },

    /** A webhook body of the given type about an invoice, as BTCPay builds it. */
    event(type: string, invoiceId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
      const deliveryId = newId();
      return {
        deliveryId,
        webhookId,
        originalDeliveryId: deliveryId,
        isRedelivery: false,
        type,
        timestamp: nowSeconds(),
        storeId,
        invoiceId,
        metadata: invoices.get(invoiceId)?.metadata ?? {},
        ...extra,
      };
    },
    /** Builds and delivers an event about an invoice (recorded; lost while `loseNotifications`). */
    async notify(type: string, invoiceId: string, extra: Record<string, unknown> = {}) {
      return fake.deliver(fake.event(type, invoiceId, extra));
    },
    /**
     * Posts a body to the webhook URL, signed with the store's secret (or `secret`, or the exact `signature` given),
     * and answers what our server said.
     */
    async deliver(
      body: Record<string, unknown> | string,
      { secret = webhookSecret, signature }: { secret?: string; signature?: string | null } = {},
    ): Promise<{ status: number | null; answer: unknown }> {
      const raw = typeof body === 'string' ? body : JSON.stringify(body);
      const delivery: Delivery = {
        body: typeof body === 'string' ? {} : body,
        raw,
        status: null,
        answer: null,
      };
      deliveries.push(delivery);
      if (!fake.webhookUrl || fake.loseNotifications) return delivery;
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'BTCPayServer' };
      if (signature !== null) headers['BTCPay-Sig'] = signature ?? sign(secret, raw);
      const response = await fetch(fake.webhookUrl, {
        method: 'POST',
        headers,
        body: raw,
        signal: AbortSignal.timeout(15_000),
      });
      delivery.status = response.status;
      delivery.answer = await response.json().catch(() => null);
      return delivery;
    },
    /** BTCPay's "Redeliver": the same event under a new delivery id, naming the original. */
    async redeliver(delivery: Delivery) {
      return fake.deliver({
        ...delivery.body,
        deliveryId: newId(),
        originalDeliveryId: delivery.body.originalDeliveryId ?? delivery.body.deliveryId,
        isRedelivery: true,
      });
    },
    /** The deliveries of one type about one invoice. */
    deliveriesOf(type: string, invoiceId: string): Delivery[] {
      return deliveries.filter((delivery) => delivery.body.type === type && delivery.body.invoiceId === invoiceId);
    },

    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const sign = (secret: string, raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

  function setStatus(invoice: FakeInvoice, status: InvoiceStatus, additionalStatus: AdditionalStatus) {
    invoice.status = status;
    invoice.additionalStatus = additionalStatus;
    invoice.availableStatusesForManualMarking = [
      ...(canMarkSettled(invoice) ? (['Settled'] as const) : []),
      ...(canMarkInvalid(invoice) ? (['Invalid'] as const) : []),
    ];
  }

  // BTCPay's rules (InvoiceState): a settled invoice can be marked invalid only when it was marked settled by hand.
  function canMarkSettled({ status }: FakeInvoice) {
    return status !== 'Settled';
  }
  function canMarkInvalid({ status, additionalStatus }: FakeInvoice) {
    return ['New', 'Processing', 'Expired'].includes(status) || (status !== 'Invalid' && additionalStatus === 'Marked');
  }
  function canRefund({ status, additionalStatus }: FakeInvoice) {
    return (
      status === 'Settled' ||
      status === 'Invalid' ||
      (status === 'Expired' && ['PaidLate', 'PaidOver', 'PaidPartial'].includes(additionalStatus))
    );
  }

  function createPullPayment(
    invoice: FakeInvoice,
    { refundVariant, name, description }: { refundVariant: string; name?: string; description?: string },
  ): FakePullPayment {
    const id = newId();
    const fiat = refundVariant === 'Fiat';
    const pullPayment: FakePullPayment = {
      id,
      invoiceId: invoice.id,
      name: name ?? `Refund ${invoice.id}`,
      description: description ?? '',
      // The coin at the fake's fixed rate of 100,000 units of the invoice's currency per BTC.
      currency: fiat ? invoice.currency : 'BTC',
      amount: fiat ? invoice.amount : (Number(invoice.amount) / 100_000).toFixed(8),
      refundVariant,
      autoApproveClaims: !fiat,
      archived: false,
      viewLink: `${fake.url}/pull-payments/${id}`,
    };
    pullPayments.push(pullPayment);
    return pullPayment;
  }

  const pullPaymentData = (pp: FakePullPayment) => ({
    id: pp.id,
    name: pp.name,
    description: pp.description,
    currency: pp.currency,
    amount: pp.amount,
    period: null,
    BOLT11Expiration: '30',
    autoApproveClaims: pp.autoApproveClaims,
    archived: pp.archived,
    viewLink: pp.viewLink,
    startsAt: nowSeconds(),
    expiresAt: null,
  });

  function send(response: http.ServerResponse, status: number, body?: unknown) {
    response.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  }
  const apiError = (code: string, message: string) => ({ code, message });

  async function readJson(request: http.IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (!text) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return Symbol.for('invalid');
    }
  }

  function createInvoice(body: Record<string, unknown>): FakeInvoice | string {
    const amount = body.amount;
    if (typeof amount !== 'string' || !/^\d+(\.\d+)?$/.test(amount)) return 'amount';
    const currency = typeof body.currency === 'string' ? body.currency.toUpperCase() : 'USD';
    const checkout = (body.checkout ?? {}) as Record<string, unknown>;
    const minutes = typeof checkout.expirationMinutes === 'number' ? checkout.expirationMinutes : 15;
    const id = newId();
    const created = nowSeconds();
    const invoice: FakeInvoice = {
      id,
      storeId,
      amount,
      paidAmount: '0',
      currency,
      type: 'Standard',
      checkoutLink: `${fake.url}/i/${id}`,
      createdTime: created,
      expirationTime: created + Math.floor(minutes * 60),
      monitoringExpiration: created + Math.floor(minutes * 60) + 24 * 3600,
      status: 'New',
      additionalStatus: 'None',
      availableStatusesForManualMarking: [],
      archived: false,
      metadata: (body.metadata ?? {}) as Record<string, unknown>,
      checkout: {
        speedPolicy: 'MediumSpeed',
        paymentMethods: ['BTC-CHAIN', 'BTC-LN'],
        defaultPaymentMethod: null,
        lazyPaymentMethods: false,
        expirationMinutes: minutes,
        monitoringMinutes: 1440,
        paymentTolerance: 0,
        redirectURL: null,
        redirectAutomatically: false,
        defaultLanguage: null,
        ...checkout,
      },
      receipt: { enabled: true, showQR: null, showPayments: null },
    };
    setStatus(invoice, 'New', 'None');
    invoices.set(id, invoice);
    return invoice;
  }

  async function api(request: http.IncomingMessage, response: http.ServerResponse, path: string) {
    const body = await readJson(request);
    requests.push({ method: request.method ?? '', path, authorization: request.headers.authorization, body });
    if (fake.mode === 'hang') {
      hanging.add(response);
      response.on('close', () => hanging.delete(response));
      return;
    }
    if (fake.mode === 'error') return send(response, 500, apiError('internal-error', 'Internal server error'));
    if (request.headers.authorization !== `token ${apiKey}`) {
      return send(response, 401, apiError('unauthenticated', 'Authentication is required for accessing this endpoint'));
    }
    const match = /^\/api\/v1\/stores\/([^/]+)\/invoices(?:\/([^/]+)(?:\/(refund))?)?$/.exec(path);
    if (!match) return send(response, 404, apiError('not-found', 'Not found'));
    const [, store, invoiceId, action] = match;
    if (decodeURIComponent(store!) !== storeId) {
      return send(response, 403, apiError('unauthorized', 'The API key is not allowed on this store'));
    }
    if (body === Symbol.for('invalid')) return send(response, 400, apiError('invalid-json', 'Invalid JSON'));
    if (!invoiceId && request.method === 'POST') {
      const created = createInvoice((body ?? {}) as Record<string, unknown>);
      if (typeof created === 'string') {
        return send(response, 422, [{ path: created, message: `The ${created} is invalid` }]);
      }
      // BTCPay notifies the creation too; our module ignores it.
      void fake.notify('InvoiceCreated', created.id).catch(() => {});
      return send(response, 200, created);
    }
    const invoice = invoiceId ? invoices.get(decodeURIComponent(invoiceId)) : undefined;
    if (!invoice) return send(response, 404, apiError('invoice-not-found', 'The invoice was not found'));
    if (!action && request.method === 'GET') return send(response, 200, invoice);
    if (action === 'refund' && request.method === 'POST') {
      const { refundVariant, name, description } = (body ?? {}) as Record<string, string | undefined>;
      if (!canRefund(invoice)) return send(response, 400, apiError('non-refundable', 'Cannot refund this invoice'));
      if (!refundVariant || !['RateThen', 'CurrentRate', 'OverpaidAmount', 'Fiat'].includes(refundVariant)) {
        return send(response, 422, [{ path: 'refundVariant', message: '`refundVariant` is mandatory' }]);
      }
      return send(
        response,
        200,
        pullPaymentData(
          createPullPayment(invoice, {
            refundVariant,
            ...(name ? { name } : {}),
            ...(description ? { description } : {}),
          }),
        ),
      );
    }
    return send(response, 405, apiError('method-not-allowed', 'Method not allowed'));
  }

  const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  /** The hosted checkout: the invoice, and a button per way it can go; each redirects as BTCPay's page does. */
  function page(invoice: FakeInvoice): string {
    const button = (action: string, label: string) =>
      `<form method="post" action="/i/${invoice.id}/${action}"><button type="submit" data-testid="btcpay-${action}">${label}</button></form>`;
    const buttons =
      invoice.status === 'New'
        ? [
            button('pay', 'Pay'),
            button('pay-unconfirmed', 'Pay, awaiting confirmations'),
            button('expire', 'Let it expire'),
          ]
        : invoice.status === 'Processing'
          ? [button('confirm', 'Confirm')]
          : [];
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>BTCPay invoice</title></head><body>
<main><h1>Pay with Bitcoin</h1>
<p data-testid="btcpay-amount">${escapeHtml(invoice.amount)} ${escapeHtml(invoice.currency)}</p>
<p data-testid="btcpay-status">${invoice.status}</p>
${buttons.join('\n')}
</main></body></html>`;
  }

  async function checkoutPage(request: http.IncomingMessage, response: http.ServerResponse, path: string) {
    const [, , id, action] = path.split('/');
    const invoice = invoices.get(id ?? '');
    if (!invoice) return send(response, 404);
    if (request.method === 'GET' && !action) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return response.end(page(invoice));
    }
    if (request.method !== 'POST') return send(response, 405);
    for await (const _ of request) {
      // The form's body carries nothing.
    }
    const steps: Record<string, () => Promise<void>> = {
      pay: () => fake.settle(invoice.id),
      'pay-unconfirmed': () => fake.payUnconfirmed(invoice.id),
      confirm: () => fake.confirm(invoice.id),
      expire: () => fake.expire(invoice.id),
    };
    const step = action ? steps[action] : undefined;
    if (!step) return send(response, 404);
    await step();
    // Paid (even unconfirmed) with a redirect asked for: straight back to the store, as BTCPay's checkout does.
    const redirect = invoice.checkout.redirectURL;
    const back =
      typeof redirect === 'string' && invoice.checkout.redirectAutomatically && invoice.status !== 'Expired'
        ? redirect
        : `/i/${invoice.id}`;
    response.writeHead(303, { location: back });
    response.end();
  }

  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const handler = path.startsWith('/api/') ? api : path.startsWith('/i/') ? checkoutPage : undefined;
    if (!handler) return send(response, 404);
    handler(request, response, path).catch((error) => {
      if (!response.headersSent) send(response, 500, apiError('fake-error', String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

export type FakeBtcpay = Awaited<ReturnType<typeof startFakeBtcpay>>;
