import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Mercado Pago's API (api.mercadopago.com, as the official SDK calls it) and for its hosted
 * Checkout Pro page. It keeps preferences, payments and refunds per account (access token) with the fields of Mercado
 * Pago's API reference that the panel reads, and signs notifications with Mercado Pago's real scheme: header
 * `x-signature: ts=<seconds>,v1=<HMAC-SHA256 hex>` of the manifest `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`
 * with the account's secret signature.
 */

export type FakeAccount = { currency: string; accessToken: string; webhookSecret: string };
type Json = Record<string, unknown>;

export type FakePreference = Json & {
  id: string;
  items: { title: string; quantity: number; unit_price: number; currency_id: string }[];
  external_reference: string;
  notification_url: string | null;
  back_urls: { success?: string; pending?: string; failure?: string };
  payer: { email?: string };
  init_point: string;
  sandbox_init_point: string;
};

export type FakePayment = Json & {
  id: number;
  status: string;
  status_detail: string;
  external_reference: string | null;
  transaction_amount: number;
  transaction_amount_refunded: number;
  currency_id: string;
  notification_url: string | null;
  refunds: Json[];
};

/** How a notification is signed and sent; every field left out is as Mercado Pago sends it. */
export type NotificationOptions = {
  /** Another secret than the payment's account's (another account's, or a forger's). */
  secret?: string;
  /** The signature's time, in seconds since the epoch (a stale one is older than the gateway's tolerance). */
  ts?: number;
  /** Replaces the signature's hash (a forged one). */
  v1?: string;
  requestId?: string;
  type?: string;
  action?: string;
};
export type FakeNotification = { url: string; headers: Record<string, string>; body: string };
export type Delivered = { status: number; body: { code?: number; msg?: string; data?: Json } };

/** `error` answers every API call 500; `hang` accepts it and never answers. The hosted page keeps working. */
export type FakeMercadoPagoMode = 'normal' | 'error' | 'hang';
/** The hosted page's buttons: a card approved at once, Pix left pending until paid, a card declined. */
export type PayMethod = 'card' | 'pix' | 'reject';

/** Mercado Pago's site per currency: an account belongs to one country. */
const SITES: Record<string, string> = { BRL: 'MLB', MXN: 'MLM', COP: 'MCO', CLP: 'MLC', PEN: 'MPE', ARS: 'MLA' };

/** Test credentials in the shape of Mercado Pago's (TEST-<app id>-<date>-<hash>-<user id>), one account per currency. */
export function fakeAccount(currency: string): FakeAccount {
  const hex = randomBytes(16).toString('hex');
  return {
    currency,
    accessToken: `TEST-${1000000 + Math.floor(Math.random() * 8999999)}-120218-${hex}-${100000000 + Math.floor(Math.random() * 899999999)}`,
    webhookSecret: randomBytes(32).toString('hex'),
  };
}

/** Mercado Pago's signature of a notification: HMAC-SHA256 (hex) of its manifest with the secret signature. */
export function signNotification(secret: string, dataId: string, requestId: string, ts: number): string {
  const manifest = `id:${dataId};request-id:${requestId};ts:${ts};`;
  return `ts=${ts},v1=${createHmac('sha256', secret).update(manifest).digest('hex')}`;
}

const cents = (amount: number) => Math.round(amount * 100);

export async function startFakeMercadoPago({
  accounts = ['BRL', 'MXN', 'COP', 'CLP', 'PEN'].map(fakeAccount),
}: {
  accounts?: FakeAccount[];
} = {}) {
  const preferences = new Map<string, FakePreference & { account: FakeAccount }>();
  const payments = new Map<number, FakePayment & { account: FakeAccount }>();
  const idempotent = new Map<string, { status: number; body: Json }>();
  /** Every API request, for tests to look at what the SDK sent. */
  const requests: { method: string; path: string; body: Json; headers: http.IncomingHttpHeaders }[] = [];
  /** Every notification sent, and the answer it got (null: no answer). */
  const deliveries: { notification: FakeNotification; status: number | null }[] = [];
  let mode: FakeMercadoPagoMode = 'normal';
  let loseNotifications = false;
  /** Where notifications go instead of the host in their URL (a test app's own address, unknown to its PUBLIC_URL). */
  let notifyOrigin: string | undefined;
  let nextPayment = 1_320_000_000;
  let nextRefund = 1_500_000_000;
  const collectorIds = new Map(accounts.map((account, i) => [account.accessToken, 400_000_000 + i]));

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      handle(request, response, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => {
        if (!response.headersSent)
          send(response, 500, { message: String(error), error: 'internal_error', status: 500 });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function send(response: http.ServerResponse, status: number, body: Json | Json[]) {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  }

  function html(response: http.ServerResponse, status: number, body: string) {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Mercado Pago</title></head><body>${body}</body></html>`,
    );
  }

  const apiError = (status: number, error: string, message: string) => ({ message, error, status, cause: [] });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse, text: string) {
    const target = new URL(request.url ?? '/', url);
    const path = target.pathname.replace(/\/+$/, '');
    const method = request.method ?? 'GET';
    if (path === '/checkout/v1/redirect' || path === '/sandbox/checkout/v1/redirect') {
      return page(response, target.searchParams.get('pref_id') ?? '');
    }
    if (path === '/checkout/v1/pay' && method === 'POST') {
      const choice = new URLSearchParams(text).get('method') as PayMethod;
      return payAndReturn(response, target.searchParams.get('pref_id') ?? '', choice);
    }

    let body: Json = {};
    try {
      body = text ? (JSON.parse(text) as Json) : {};
    } catch {
      return send(response, 400, apiError(400, 'bad_request', 'invalid JSON'));
    }
    requests.push({ method, path: `${path}${target.search}`, body, headers: request.headers });
    if (mode === 'hang') return;
    if (mode === 'error') return send(response, 500, apiError(500, 'internal_error', 'internal_error'));

    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const account = accounts.find((candidate) => candidate.accessToken === token);
    if (!account) return send(response, 401, apiError(401, 'unauthorized', 'invalid access token'));

    // Mercado Pago answers a write it has seen with its key again as it answered the first time.
    const key = request.headers['x-idempotency-key'];
    const remembered =
      method === 'POST' && typeof key === 'string' ? `${account.accessToken}:${path}:${key}` : undefined;
    if (remembered && idempotent.has(remembered)) {
      const { status, body: first } = idempotent.get(remembered)!;
      return send(response, status, first);
    }
    const answer = await api(account, method, path, target.searchParams, body);
    if (remembered && answer.status < 300) idempotent.set(remembered, answer);
    send(response, answer.status, answer.body);
  }

  async function api(
    account: FakeAccount,
    method: string,
    path: string,
    query: URLSearchParams,
    body: Json,
  ): Promise<{ status: number; body: Json }> {
    if (method === 'POST' && path === '/checkout/preferences') return createPreference(account, body);
    const preferenceId = /^\/checkout\/preferences\/([\w-]+)$/.exec(path)?.[1];
    if (method === 'GET' && preferenceId) {
      const preference = preferences.get(preferenceId);
      if (!preference || preference.account !== account)
        return { status: 404, body: apiError(404, 'not_found', 'preference not found') };
      return { status: 200, body: publicPreference(preference) };
    }
    if (method === 'GET' && path === '/v1/payments/search') {
      const found = [...payments.values()].filter(
        (payment) =>
          payment.account === account &&
          (!query.has('external_reference') || payment.external_reference === query.get('external_reference')),
      );
      if (query.get('sort') === 'date_created' && query.get('criteria') === 'desc') found.reverse();
      const offset = Number(query.get('offset') ?? 0);
      const limit = Number(query.get('limit') ?? 30);
      return {
        status: 200,
        body: {
          paging: { total: found.length, limit, offset },
          results: found.slice(offset, offset + limit).map(publicPayment),
        },
      };
    }
    const paymentPath = /^\/v1\/payments\/(\d+)(\/refunds)?$/.exec(path);
    const payment = paymentPath ? payments.get(Number(paymentPath[1])) : undefined;
    if (paymentPath && (!payment || payment.account !== account)) {
      return { status: 404, body: apiError(404, 'not_found', `Payment not found`) };
    }
    if (payment && method === 'GET' && !paymentPath?.[2]) return { status: 200, body: publicPayment(payment) };
    if (payment && method === 'POST' && paymentPath?.[2]) {
      const amount = typeof body.amount === 'number' ? body.amount : undefined;
      const refund = refundPayment(payment, amount);
      if (!refund) return { status: 400, body: apiError(400, 'bad_request', 'Payment not refundable') };
      await notify(payment);
      return { status: 201, body: refund };
    }
    return { status: 404, body: apiError(404, 'not_found', `resource ${method} ${path} not found`) };
  }

  function createPreference(account: FakeAccount, body: Json): { status: number; body: Json } {
    const items = body.items as FakePreference['items'] | undefined;
    const bad = (message: string) => ({ status: 400, body: apiError(400, 'bad_request', message) });
    if (!Array.isArray(items) || items.length === 0) return bad('items needed');
    for (const item of items) {
      if (typeof item.unit_price !== 'number' || !(item.unit_price > 0)) return bad('unit_price invalid');
      if (!Number.isInteger(item.quantity) || item.quantity < 1) return bad('quantity invalid');
      if (item.currency_id !== account.currency) return bad(`currency_id invalid for site ${SITES[account.currency]}`);
      // Pesos chilenos have no cents at Mercado Pago.
      if (account.currency === 'CLP' && !Number.isInteger(item.unit_price)) return bad('unit_price invalid for CLP');
    }
    const collector = collectorIds.get(account.accessToken)!;
    const id = `${collector}-${randomUUID()}`;
    const now = new Date().toISOString();
    const preference: FakePreference & { account: FakeAccount } = {
      ...body,
      id,
      items: items.map((item) => ({ ...item, description: '', category_id: '', picture_url: '' })),
      external_reference: String(body.external_reference ?? ''),
      notification_url: typeof body.notification_url === 'string' ? body.notification_url : null,
      back_urls: (body.back_urls as FakePreference['back_urls']) ?? {},
      payer: (body.payer as FakePreference['payer']) ?? {},
      collector_id: collector,
      client_id: String(collector),
      date_created: now,
      expiration_date_from: body.expiration_date_from ?? now,
      marketplace: 'NONE',
      marketplace_fee: 0,
      operation_type: 'regular_payment',
      site_id: SITES[account.currency],
      init_point: `${url}/checkout/v1/redirect?pref_id=${id}`,
      sandbox_init_point: `${url}/sandbox/checkout/v1/redirect?pref_id=${id}`,
      account,
    };
    preferences.set(id, preference);
    return { status: 201, body: publicPreference(preference) };
  }

  const publicPreference = ({ account: _, ...preference }: FakePreference & { account: FakeAccount }) => preference;
  const publicPayment = ({ account: _, ...payment }: FakePayment & { account: FakeAccount }) => payment;

  /** A payment of a preference, as the hosted page makes it; the amount and order may be overridden (a forgery test). */
  function createPayment(
    preference: FakePreference & { account: FakeAccount },
    method: PayMethod,
    overrides: { transaction_amount?: number; external_reference?: string | null; currency_id?: string } = {},
  ) {
    const amount = preference.items.reduce((sum, item) => sum + item.unit_price * item.quantity, 0);
    const now = new Date().toISOString();
    const [status, detail, methodId, typeId] =
      method === 'card'
        ? ['approved', 'accredited', 'visa', 'credit_card']
        : method === 'pix'
          ? ['pending', 'pending_waiting_transfer', 'pix', 'bank_transfer']
          : ['rejected', 'cc_rejected_other_reason', 'master', 'credit_card'];
    const transactionAmount = overrides.transaction_amount ?? amount;
    const payment: FakePayment & { account: FakeAccount } = {
      id: nextPayment++,
      date_created: now,
      date_approved: status === 'approved' ? now : null,
      date_last_updated: now,
      money_release_date: status === 'approved' ? now : null,
      operation_type: 'regular_payment',
      payment_method_id: methodId,
      payment_type_id: typeId,
      status,
      status_detail: detail,
      currency_id: overrides.currency_id ?? preference.account.currency,
      description: preference.items[0]?.title ?? '',
      live_mode: false,
      collector_id: preference.collector_id,
      payer: { id: String(700_000_000 + payments.size), email: preference.payer.email ?? null, type: 'guest' },
      metadata: preference.metadata ?? {},
      additional_info: { items: preference.items },
      external_reference:
        overrides.external_reference === undefined ? preference.external_reference : overrides.external_reference,
      transaction_amount: transactionAmount,
      transaction_amount_refunded: 0,
      coupon_amount: 0,
      installments: 1,
      transaction_details: {
        net_received_amount: status === 'approved' ? transactionAmount : 0,
        total_paid_amount: transactionAmount,
        installment_amount: transactionAmount,
        overpaid_amount: 0,
      },
      captured: true,
      binary_mode: false,
      notification_url: preference.notification_url,
      order: { id: 9_000_000_000 + payments.size, type: 'mercadopago' },
      refunds: [],
      point_of_interaction:
        method === 'pix'
          ? {
              type: 'CHECKOUT',
              transaction_data: { qr_code: '00020126580014br.gov.bcb.pix', ticket_url: `${url}/pix` },
            }
          : { type: 'UNSPECIFIED' },
      account: preference.account,
    };
    payments.set(payment.id, payment);
    return payment;
  }

  function setStatus(payment: FakePayment, status: string, detail: string) {
    const now = new Date().toISOString();
    payment.status = status;
    payment.status_detail = detail;
    payment.date_last_updated = now;
    if (status === 'approved') payment.date_approved = now;
  }

  function refundPayment(payment: FakePayment & { account: FakeAccount }, amount?: number): Json | undefined {
    const left = cents(payment.transaction_amount) - cents(payment.transaction_amount_refunded);
    const wanted = amount === undefined ? left : cents(amount);
    if (payment.status !== 'approved' || wanted <= 0 || wanted > left) return undefined;
    const refund = {
      id: nextRefund++,
      payment_id: payment.id,
      amount: wanted / 100,
      amount_refunded_to_payer: wanted / 100,
      metadata: {},
      source: { id: String(payment.collector_id), name: 'collector', type: 'collector' },
      date_created: new Date().toISOString(),
      unique_sequence_number: null,
      refund_mode: 'standard',
      adjustment_amount: 0,
      status: 'approved',
      reason: null,
      labels: [],
      partition_details: [],
    };
    payment.refunds.push(refund);
    payment.transaction_amount_refunded = (cents(payment.transaction_amount_refunded) + wanted) / 100;
    if (wanted === left) setStatus(payment, 'refunded', 'refunded');
    return refund;
  }

  /** The signed notification Mercado Pago sends about a payment (Webhooks, topic `payment`). */
  function notification(
    payment: FakePayment & { account: FakeAccount },
    options: NotificationOptions = {},
  ): FakeNotification {
    const dataId = String(payment.id);
    const requestId = options.requestId ?? randomUUID();
    const ts = options.ts ?? Math.floor(Date.now() / 1000);
    const type = options.type ?? 'payment';
    let signature = signNotification(options.secret ?? payment.account.webhookSecret, dataId, requestId, ts);
    if (options.v1) signature = `ts=${ts},v1=${options.v1}`;
    const base = new URL(payment.notification_url ?? `${url}/nowhere`);
    if (notifyOrigin) {
      const origin = new URL(notifyOrigin);
      base.protocol = origin.protocol;
      base.host = origin.host;
    }
    base.searchParams.set('data.id', dataId);
    base.searchParams.set('type', type);
    return {
      url: base.toString(),
      headers: { 'content-type': 'application/json', 'x-signature': signature, 'x-request-id': requestId },
      body: JSON.stringify({
        action: options.action ?? 'payment.updated',
        api_version: 'v1',
        data: { id: dataId },
        date_created: new Date().toISOString(),
        id: Number(randomBytes(5).readUIntBE(0, 5)),
        live_mode: false,
        type,
        user_id: String(payment.collector_id),
      }),
    };
  }

  async function deliver(sent: FakeNotification): Promise<Delivered | null> {
    try {
      const answer = await fetch(sent.url, {
        method: 'POST',
        headers: sent.headers,
        body: sent.body,
        signal: AbortSignal.timeout(10_000),
      });
      const result = { status: answer.status, body: (await answer.json().catch(() => ({}))) as Delivered['body'] };
      deliveries.push({ notification: sent, status: result.status });
      return result;
    } catch {
      deliveries.push({ notification: sent, status: null });
      return null;
    }
  }

  /** What Mercado Pago does after a payment changes: notifies, unless the test makes it lose its notifications. */
  async function notify(payment: FakePayment & { account: FakeAccount }, action = 'payment.updated') {
    if (loseNotifications || !payment.notification_url) return null;
    return deliver(notification(payment, { action }));
  }

  function paymentOf(id: number) {
    const payment = payments.get(id);
    if (!payment) throw new Error(`the fake has no payment ${id}`);
    return payment;
  }

  function preferenceOf(id: string) {
    const preference = preferences.get(id);
    if (!preference) throw new Error(`the fake has no preference ${id}`);
    return preference;
  }

  /** The page's buttons: the payment made and notified, then the way back with Mercado Pago's query. */
  async function pay(preferenceId: string, method: PayMethod) {
    const payment = createPayment(preferenceOf(preferenceId), method);
    await notify(payment, 'payment.created');
    return payment;
  }

  function returnUrl(preference: FakePreference, payment: FakePayment): string {
    const back =
      payment.status === 'approved'
        ? preference.back_urls.success
        : payment.status === 'rejected'
          ? preference.back_urls.failure
          : preference.back_urls.pending;
    const target = new URL(back ?? `${url}/`);
    const query: Record<string, string> = {
      collection_id: String(payment.id),
      collection_status: payment.status,
      payment_id: String(payment.id),
      status: payment.status,
      external_reference: payment.external_reference ?? 'null',
      payment_type: String(payment.payment_type_id),
      merchant_order_id: String((payment.order as { id: number }).id),
      preference_id: preference.id,
      site_id: String(preference.site_id),
      processing_mode: 'aggregator',
      merchant_account_id: 'null',
    };
    for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
    return target.toString();
  }

  function page(response: http.ServerResponse, preferenceId: string) {
    const preference = preferences.get(preferenceId);
    if (!preference) return html(response, 404, '<h1>This payment link does not exist</h1>');
    const item = preference.items[0]!;
    const escapeHtml = (value: string) => value.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const action = `/checkout/v1/pay?pref_id=${encodeURIComponent(preference.id)}`;
    const button = (method: PayMethod, label: string) =>
      `<form method="post" action="${action}"><input type="hidden" name="method" value="${method}">` +
      `<button type="submit" data-testid="mp-${method}">${label}</button></form>`;
    html(
      response,
      200,
      `<main><h1>Mercado Pago</h1><p data-testid="mp-item">${escapeHtml(item.title)}</p>` +
        `<p data-testid="mp-amount">${item.unit_price} ${escapeHtml(item.currency_id)}</p>` +
        `<p data-testid="mp-payer">${escapeHtml(preference.payer.email ?? '')}</p>` +
        button('card', 'Pay now by card') +
        button('pix', 'Pay with Pix (confirmed later)') +
        button('reject', 'Card declined') +
        '</main>',
    );
  }

  async function payAndReturn(response: http.ServerResponse, preferenceId: string, method: PayMethod) {
    const preference = preferences.get(preferenceId);
    if (!preference || !['card', 'pix', 'reject'].includes(method)) return html(response, 400, '<h1>Bad request</h1>');
    const payment = await pay(preferenceId, method);
    response.writeHead(303, { location: returnUrl(preference, payment) });
    response.end();
  }

  return {
    url,
    accounts,
    preferences,
    payments,
    requests,
    deliveries,
    /** The server's variables for these accounts, pointed at this fake. */
    env(): Record<string, string> {
      return {
        MERCADOPAGO_API_URL: url,
        ...Object.fromEntries(
          accounts.flatMap((account) => [
            [`MERCADOPAGO_ACCESS_TOKEN_${account.currency}`, account.accessToken],
            [`MERCADOPAGO_WEBHOOK_SECRET_${account.currency}`, account.webhookSecret],
          ]),
        ),
      };
    },
    account(currency: string): FakeAccount {
      const account = accounts.find((candidate) => candidate.currency === currency);
      if (!account) throw new Error(`the fake has no ${currency} account`);
      return account;
    },
    setMode(next: FakeMercadoPagoMode) {
      mode = next;
    },
    /** From now on, payments change without any notification being sent (as when every retry was lost). */
    loseNotifications(lose = true) {
      loseNotifications = lose;
    },
    notifyTo(origin: string | undefined) {
      notifyOrigin = origin;
    },
    /** The preference made for an order, the newest one. */
    preferenceFor(orderNo: string) {
      return [...preferences.values()].reverse().find((preference) => preference.external_reference === orderNo);
    },
    /** The payments of an order, oldest first. */
    paymentsOf(orderNo: string) {
      return [...payments.values()].filter((payment) => payment.external_reference === orderNo);
    },
    /** As the hosted page's buttons do: pay (card approved, Pix pending, card rejected) and notify. */
    pay,
    /** A payment made without notifying, with the amount or order of a test's choosing (forgeries, other orders). */
    addPayment(preferenceId: string, method: PayMethod, overrides: Parameters<typeof createPayment>[2] = {}) {
      return createPayment(preferenceOf(preferenceId), method, overrides);
    },
    /** The Pix transfer arrives: the pending payment is approved and notified. */
    async confirm(paymentId: number) {
      const payment = paymentOf(paymentId);
      setStatus(payment, 'approved', 'accredited');
      payment.money_release_date = payment.date_approved;
      return notify(payment);
    },
    /** The seller refunds from Mercado Pago's dashboard: all of it, or part. */
    async refund(paymentId: number, amount?: number) {
      const payment = paymentOf(paymentId);
      if (!refundPayment(payment, amount)) throw new Error(`payment ${paymentId} is not refundable`);
      return notify(payment);
    },
    /** The buyer's bank takes the money back. */
    async chargeBack(paymentId: number) {
      const payment = paymentOf(paymentId);
      setStatus(payment, 'charged_back', 'settled');
      return notify(payment);
    },
    /** The buyer opens a dispute: the money is held. */
    async mediate(paymentId: number) {
      const payment = paymentOf(paymentId);
      setStatus(payment, 'in_mediation', 'in_process');
      return notify(payment);
    },
    /** A signed notification about a payment, to be delivered (or altered) by the test. */
    notification(paymentId: number, options: NotificationOptions = {}) {
      return notification(paymentOf(paymentId), options);
    },
    deliver,
    /** Where the customer lands after paying on the hosted page. */
    returnUrl(paymentId: number) {
      const payment = paymentOf(paymentId);
      const preference = [...preferences.values()].find(
        (candidate) => candidate.external_reference === payment.external_reference,
      );
      return preference ? returnUrl(preference, payment) : undefined;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeMercadoPago = Awaited<ReturnType<typeof startFakeMercadoPago>>;
