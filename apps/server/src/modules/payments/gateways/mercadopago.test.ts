import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededCatalog, seedCatalog } from '../../../test/catalog.js';
import {
  type FakeMercadoPago,
  type FakeNotification,
  fakeAccount,
  startFakeMercadoPago,
} from '../../../test/fakes/mercadopago.js';
import { httpClient } from '../../../test/http-client.js';
import { newCustomerOrder, paymentState } from '../../../test/payments.js';
import { DATABASES, POSTGRES_URL, REDIS_URL, startTestApp, type TestApp } from '../../../test/test-app.js';
import { RECONCILE_AFTER_MS } from '../payments.service.js';
import { type GatewayOrder, GatewayUnavailable, NotificationRejected, type PaymentGateway } from './gateway.js';
import { mercadoPagoGateway } from './mercadopago.js';

const TEN_MINUTES_AGO = () => Math.floor(Date.now() / 1000) - 11 * 60;
const context = {
  language: 'en' as const,
  returnUrl: 'https://panel.example/person/status/',
  notifyUrl: 'https://panel.example/payment/notify/mercadopago',
};
let orderSeq = 0;
const orderNo = () => `2026120203000${String(++orderSeq).padStart(11, '0')}`;
const gatewayOrder = (overrides: Partial<GatewayOrder> = {}): GatewayOrder => ({
  no: orderNo(),
  amountMinor: 2490,
  decimals: 2,
  currency: 'BRL',
  email: 'payer@example.com',
  description: 'Traffic 100 · 100 GB / 30 days',
  dueAt: Date.now() + 30 * 60_000,
  ...overrides,
});

/** The notification as the panel's route hands it to the gateway. */
const asRequest = (sent: FakeNotification) => ({
  headers: sent.headers,
  rawBody: sent.body,
  query: Object.fromEntries(new URL(sent.url).searchParams),
});

describe('the Mercado Pago module, against the fake', () => {
  let fake: FakeMercadoPago;
  let gateway: PaymentGateway;

  beforeAll(async () => {
    fake = await startFakeMercadoPago({ accounts: ['BRL', 'MXN', 'CLP', 'COP'].map(fakeAccount) });
    gateway = mercadoPagoGateway({ accounts: fake.accounts, apiUrl: fake.url });
  });
  afterAll(async () => {
    await fake?.close();
  });

  async function started(overrides: Partial<GatewayOrder> = {}) {
    const order = gatewayOrder(overrides);
    const { reference } = await gateway.start(order, { ...context, returnUrl: `${context.returnUrl}${order.no}` });
    return { order, preference: reference! };
  }

  it('takes the currencies it has an account for', () => {
    expect(['BRL', 'brl', 'MXN', 'CLP', 'COP'].map(gateway.takes)).toEqual([true, true, true, true, true]);
    expect(['USD', 'PEN', 'EUR'].map(gateway.takes)).toEqual([false, false, false]);
  });

  it("starts a Checkout Pro preference with the order's price, payer, reference and addresses, once per order", async () => {
    const order = gatewayOrder();
    const returnUrl = `${context.returnUrl}${order.no}`;
    const first = await gateway.start(order, { ...context, returnUrl });
    const request = fake.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/checkout/preferences' });
    expect(request.headers.authorization).toBe(`Bearer ${fake.account('BRL').accessToken}`);
    expect(request.headers['x-idempotency-key']).toBe(`mutenet-preference-${order.no}`);
    expect(request.body).toMatchObject({
      items: [{ title: order.description, quantity: 1, unit_price: 24.9, currency_id: 'BRL' }],
      payer: { email: 'payer@example.com' },
      external_reference: order.no,
      metadata: { order_no: order.no },
      back_urls: { success: returnUrl, pending: returnUrl, failure: returnUrl },
      auto_return: 'approved',
      notification_url: `${context.notifyUrl}?source_news=webhooks`,
      expires: true,
      expiration_date_to: new Date(order.dueAt).toISOString(),
    });
    const preference = fake.preferences.get(first.reference!)!;
    // Test credentials pay on the sandbox page.
    expect(first.redirect).toBe(preference.sandbox_init_point);
    // Pressing pay again gets the same preference back.
    expect(await gateway.start(order, { ...context, returnUrl })).toEqual(first);
    expect([...fake.preferences.values()].filter((p) => p.external_reference === order.no)).toHaveLength(1);
  });

  it('sends production credentials to the live page', async () => {
    const live = { currency: 'PEN', accessToken: `APP_USR-${'1'.repeat(16)}-live`, webhookSecret: 'a'.repeat(32) };
    const liveFake = await startFakeMercadoPago({ accounts: [live] });
    try {
      const liveGateway = mercadoPagoGateway({ accounts: [live], apiUrl: liveFake.url });
      const { redirect, reference } = await liveGateway.start(gatewayOrder({ currency: 'PEN' }), context);
      expect(redirect).toBe(liveFake.preferences.get(reference!)!.init_point);
    } finally {
      await liveFake.close();
    }
  });

  it('charges CLP in whole pesos and COP in pesos, and reads their amounts back exactly', async () => {
    const clp = await started({ currency: 'CLP', amountMinor: 4990, decimals: 0 });
    expect(fake.requests.at(-1)!.body).toMatchObject({ items: [{ unit_price: 4990, currency_id: 'CLP' }] });
    const cop = await started({ currency: 'COP', amountMinor: 2_000_000, decimals: 2 });
    expect(fake.requests.at(-1)!.body).toMatchObject({ items: [{ unit_price: 20000, currency_id: 'COP' }] });
    const odd = await started({ amountMinor: 1, decimals: 2 });
    expect(fake.requests.at(-1)!.body).toMatchObject({ items: [{ unit_price: 0.01 }] });

    fake.loseNotifications();
    try {
      const paid = await Promise.all([clp, cop, odd].map(({ preference }) => fake.pay(preference, 'card')));
      const events = await Promise.all(paid.map((payment) => gateway.verify(asRequest(fake.notification(payment.id)))));
      expect(events.map((list) => list.map(({ amount, currency }) => ({ amount, currency })))).toEqual([
        [{ amount: '4990', currency: 'CLP' }],
        [{ amount: '20000', currency: 'COP' }],
        [{ amount: '0.01', currency: 'BRL' }],
      ]);
    } finally {
      fake.loseNotifications(false);
    }
  });

  it("reads a signed notification back from the payments API and maps each status to the order's", async () => {
    fake.loseNotifications();
    try {
      const { order, preference } = await started();
      const payment = await fake.pay(preference, 'pix');
      const read = () => gateway.verify(asRequest(fake.notification(payment.id)));
      const expected = (status: string, outcome: string) => [
        {
          eventId: `${payment.id}:${status}`,
          orderNo: order.no,
          outcome,
          amount: '24.9',
          currency: 'BRL',
          paymentRef: String(payment.id),
        },
      ];
      expect(await read()).toEqual(expected('pending', 'doing'));
      for (const [status, outcome] of [
        ['in_process', 'doing'],
        ['authorized', 'doing'],
        ['approved', 'success'],
        ['rejected', 'failed'],
        ['cancelled', 'cancel'],
        ['charged_back', 'rejected'],
      ]) {
        payment.status = status!;
        expect(await read()).toEqual(expected(status!, outcome!));
      }
      // A dispute holds the money: nothing to act on until Mercado Pago decides.
      payment.status = 'in_mediation';
      expect(await read()).toEqual([]);

      // Refunded in part, nothing; in full, refunded.
      payment.status = 'approved';
      await fake.refund(payment.id, 10);
      expect(payment.status).toBe('approved');
      expect(await read()).toEqual(expected('approved', 'success'));
      await fake.refund(payment.id);
      expect(payment).toMatchObject({ status: 'refunded', transaction_amount_refunded: 24.9 });
      expect(await read()).toEqual(expected('refunded', 'refunded'));
      payment.transaction_amount_refunded = 10;
      expect(await read()).toEqual([]);
    } finally {
      fake.loseNotifications(false);
    }
  });

  it('takes the id from the body when the route passes no query, and ignores what is not a payment of an order', async () => {
    fake.loseNotifications();
    try {
      const { preference } = await started();
      const payment = await fake.pay(preference, 'card');
      const sent = fake.notification(payment.id);
      expect(await gateway.verify({ headers: sent.headers, rawBody: sent.body })).toHaveLength(1);
      // Other topics, signed all the same.
      const merchantOrder = fake.notification(payment.id, { type: 'merchant_order' });
      expect(await gateway.verify(asRequest(merchantOrder))).toEqual([]);
      // A sale of the same account that the panel did not start.
      const foreign = fake.addPayment(preference, 'card', { external_reference: null });
      expect(await gateway.verify(asRequest(fake.notification(foreign.id)))).toEqual([]);
    } finally {
      fake.loseNotifications(false);
    }
  });

  it('refuses unsigned, forged, stale and wrongly addressed notifications before asking Mercado Pago', async () => {
    fake.loseNotifications();
    try {
      const { preference } = await started();
      const payment = await fake.pay(preference, 'card');
      const good = fake.notification(payment.id);
      const refused = (request: Parameters<PaymentGateway['verify']>[0]) =>
        expect(gateway.verify(request)).rejects.toBeInstanceOf(NotificationRejected);
      const reads = () => fake.requests.filter((request) => request.path === `/v1/payments/${payment.id}`).length;
      const before = reads();

      await refused({ headers: { 'content-type': 'application/json' }, rawBody: good.body });
      await refused(asRequest({ ...good, headers: { ...good.headers, 'x-signature': 'v1=abc' } }));
      await refused(asRequest(fake.notification(payment.id, { v1: 'f'.repeat(64) })));
      await refused(asRequest(fake.notification(payment.id, { secret: 'a forger who guessed the format' })));
      await refused(asRequest(fake.notification(payment.id, { ts: TEN_MINUTES_AGO() })));
      // Signed for this id, sent about another one.
      const elsewhere = { ...asRequest(good), query: { 'data.id': String(payment.id + 1), type: 'payment' } };
      await refused(elsewhere);
      // Where the route passes no query, the body's id is the one checked.
      await refused({ headers: good.headers, rawBody: good.body.replace(String(payment.id), String(payment.id + 1)) });
      // The request id is part of what is signed.
      await refused(asRequest({ ...good, headers: { ...good.headers, 'x-request-id': 'another' } }));
      await refused(asRequest({ ...good, body: 'not json' }));
      expect(reads()).toBe(before);

      // Signed by another account's secret: read with that account, which has no such payment.
      await refused(asRequest(fake.notification(payment.id, { secret: fake.account('MXN').webhookSecret })));
      expect(await gateway.verify(asRequest(good))).toHaveLength(1);
    } finally {
      fake.loseNotifications(false);
    }
  });

  it("asks for an order's payments by its reference, and refunds one in full once", async () => {
    fake.loseNotifications();
    try {
      const { order, preference } = await started();
      const declined = await fake.pay(preference, 'reject');
      const paid = await fake.pay(preference, 'card');
      const status = await gateway.status({ orderNo: order.no, reference: preference, currency: 'BRL' });
      expect(status.map(({ eventId, outcome }) => ({ eventId, outcome }))).toEqual([
        { eventId: `${declined.id}:rejected`, outcome: 'failed' },
        { eventId: `${paid.id}:approved`, outcome: 'success' },
      ]);
      expect(fake.requests.at(-1)!.path).toContain(`external_reference=${order.no}`);

      const refund = {
        orderNo: order.no,
        paymentRef: String(paid.id),
        amountMinor: 2490,
        decimals: 2,
        currency: 'BRL',
      };
      await gateway.refund(refund);
      await gateway.refund(refund);
      expect(paid).toMatchObject({ status: 'refunded', transaction_amount_refunded: 24.9 });
      expect(paid.refunds).toHaveLength(1);
      const refundCalls = fake.requests.filter((request) => request.path === `/v1/payments/${paid.id}/refunds`);
      expect(refundCalls.map((call) => call.headers['x-idempotency-key'])).toEqual([
        `mutenet-refund-${order.no}-${paid.id}`,
        `mutenet-refund-${order.no}-${paid.id}`,
      ]);
      await expect(gateway.refund({ ...refund, currency: 'USD' })).rejects.toBeInstanceOf(GatewayUnavailable);
    } finally {
      fake.loseNotifications(false);
    }
  });

  it('gives up on a Mercado Pago that answers 500 or never answers', async () => {
    const { order, preference } = await started();
    fake.loseNotifications();
    const payment = await fake.pay(preference, 'card');
    fake.loseNotifications(false);
    const refund = {
      orderNo: order.no,
      paymentRef: String(payment.id),
      amountMinor: 2490,
      decimals: 2,
      currency: 'BRL',
    };
    for (const mode of ['error', 'hang'] as const) {
      fake.setMode(mode);
      const calls = fake.requests.length;
      try {
        await Promise.all([
          expect(gateway.start(gatewayOrder(), context)).rejects.toBeInstanceOf(GatewayUnavailable),
          expect(gateway.verify(asRequest(fake.notification(payment.id)))).rejects.toBeInstanceOf(GatewayUnavailable),
          expect(gateway.status({ orderNo: order.no, reference: preference, currency: 'BRL' })).rejects.toBeInstanceOf(
            GatewayUnavailable,
          ),
          expect(gateway.refund(refund)).rejects.toBeInstanceOf(GatewayUnavailable),
        ]);
      } finally {
        fake.setMode('normal');
      }
      // One request each: the SDK's retries are off.
      expect(fake.requests.length - calls).toBe(4);
    }
    expect(payment.status).toBe('approved');
  });
});

describe.each(DATABASES)('Mercado Pago through the panel on %s', (database) => {
  let fake: FakeMercadoPago;
  let app: TestApp;
  let seeded: SeededCatalog;
  let pesos: number;
  let seq = 0;

  beforeAll(async () => {
    fake = await startFakeMercadoPago();
    app = await startTestApp({ database, env: fake.env() });
    fake.notifyTo(app.url);
    seeded = await seedCatalog(app);
    await app.app.catalog.addCurrency('COP', 'Peso colombiano', 2, 3);
    const plan = await app.app.catalog.addPlan({
      group: 'traffic',
      names: { en: 'Pesos', 'pt-BR': 'Pesos', 'zh-Hans': 'Pesos' },
      contents: { en: 'p', 'pt-BR': 'p', 'zh-Hans': 'p' },
    });
    pesos = (await app.app.catalog.addPackage(plan, {
      label: '100 GB',
      days: 30,
      trafficBytes: 1024 ** 3,
      prices: [
        { currency: 'CLP', price_minor: 5990, real_minor: 4990 },
        { currency: 'COP', price_minor: 2_500_000, real_minor: 2_000_000 },
      ],
    }))!;
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  async function newOrder(currency = 'BRL', pkgId = seeded.traffic30, language = 'en') {
    return newCustomerOrder(app, { email: `mp${++seq}.${database}@example.com`, pkgId, currency, language });
  }

  /** The checkout's pay call with Mercado Pago: the hosted page's address. */
  async function startPaying(currency = 'BRL', pkgId = seeded.traffic30) {
    const bought = await newOrder(currency, pkgId);
    const paid = await bought.api.post(`/payment/checkout/${bought.no}/pay`, {
      form: { method: 'mercadopago' },
      token: bought.token,
    });
    expect(paid.body).toMatchObject({ code: 0, data: { redirect: expect.stringContaining(fake.url) } });
    const preference = fake.preferenceFor(bought.no)!;
    expect(preference.notification_url).toBe(`${app.config.publicUrl}/payment/notify/mercadopago?source_news=webhooks`);
    expect(preference.back_urls.success).toBe(`${app.config.publicUrl}/person/status/${bought.no}`);
    return { ...bought, redirect: paid.body.data.redirect as string, preference };
  }

  /** The customer presses one of the hosted page's buttons; resolves with where Mercado Pago sends them back. */
  async function press(redirect: string, method: 'card' | 'pix' | 'reject') {
    const page = await fetch(redirect);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)">/.exec(html)![1]!.replace(/&amp;/g, '&');
    const answer = await fetch(new URL(action, redirect), {
      method: 'POST',
      body: new URLSearchParams({ method }),
      redirect: 'manual',
    });
    expect(answer.status).toBe(303);
    return new URL(answer.headers.get('location')!);
  }

  const state = (orderId: number) => paymentState(app, orderId);
  const ended = async (orderId: number) =>
    (await app.app.db.selectFrom('user_packages').select('ended_at').where('order_id', '=', orderId).execute()).map(
      (row) => row.ended_at !== null,
    );
  const notify = (sent: FakeNotification) => fake.deliver(sent);

  it('is offered for currencies that have an account: BRL, not USD', async () => {
    const brl = await newOrder('BRL');
    const methods = async (order: typeof brl) =>
      (await order.api.get(`/payment/checkout/${order.no}`, { token: order.token })).body.data.methods.map(
        (method: { id: string }) => method.id,
      );
    expect(await methods(brl)).toContain('mercadopago');
    const usd = await newOrder('USD');
    expect(await methods(usd)).not.toContain('mercadopago');
    const refused = await usd.api.post(`/payment/checkout/${usd.no}/pay`, {
      form: { method: 'mercadopago' },
      token: usd.token,
    });
    expect(refused.body).toMatchObject({ code: 2006, msg: MESSAGES.PAYMENT_METHOD_UNAVAILABLE.en });
  });

  it('pays by card on the hosted page: success and a package, and the customer back on the order', async () => {
    const { no, order, redirect } = await startPaying();
    expect(await state(order.id)).toMatchObject({ status: 'paying', packages: 0 });
    const back = await press(redirect, 'card');
    expect(`${back.origin}${back.pathname}`).toBe(`${app.config.publicUrl}/person/status/${no}`);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      collection_status: 'approved',
      external_reference: no,
    });
    expect(fake.deliveries.at(-1)!.status).toBe(200);
    expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
    const row = await app.app.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ gateway: 'mercadopago', payment_ref: back.searchParams.get('payment_id') });
  });

  it('pays by Pix: in process until the transfer arrives, then success', async () => {
    const { order, redirect } = await startPaying();
    const back = await press(redirect, 'pix');
    expect(back.searchParams.get('collection_status')).toBe('pending');
    expect(await state(order.id)).toEqual({ status: 'doing', packages: 0, events: 1 });
    await fake.confirm(Number(back.searchParams.get('payment_id')));
    expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 2 });
  });

  it('records a declined card as failed', async () => {
    const { order, redirect } = await startPaying();
    const back = await press(redirect, 'reject');
    expect(back.searchParams.get('collection_status')).toBe('rejected');
    expect(await state(order.id)).toEqual({ status: 'failed', packages: 0, events: 1 });
  });

  it('charges CLP and COP in their own units', async () => {
    for (const [currency, unitPrice, amount] of [
      ['CLP', 4990, '4990'],
      ['COP', 20000, '20000'],
    ] as const) {
      const { order, preference, redirect } = await startPaying(currency, pesos);
      expect(preference.items[0]).toMatchObject({ unit_price: unitPrice, currency_id: currency });
      await press(redirect, 'card');
      expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
      expect(String(fake.paymentsOf(order.no)[0]!.transaction_amount)).toBe(amount);
    }
  });

  it('refuses forged, wrongly signed, stale, amount-mismatched and other-order notifications, and applies a replay once', async () => {
    const { order, preference } = await startPaying();
    fake.loseNotifications();
    const payment = await fake.pay(preference.id, 'card');
    fake.loseNotifications(false);
    const unchanged = await state(order.id);
    expect(unchanged).toEqual({ status: 'paying', packages: 0, events: 0 });
    const refusals = [
      fake.notification(payment.id, { v1: 'a'.repeat(64) }),
      fake.notification(payment.id, { secret: 'not the secret signature of any account' }),
      fake.notification(payment.id, { secret: fake.account('MXN').webhookSecret }),
      fake.notification(payment.id, { ts: TEN_MINUTES_AGO() }),
      (() => {
        const sent = fake.notification(payment.id);
        return { ...sent, headers: { 'content-type': 'application/json' } };
      })(),
      fake.notification(fake.addPayment(preference.id, 'card', { transaction_amount: 0.5 }).id),
      fake.notification(fake.addPayment(preference.id, 'card', { currency_id: 'USD' }).id),
      fake.notification(fake.addPayment(preference.id, 'card', { external_reference: '9'.repeat(24) }).id),
    ];
    for (const sent of refusals) {
      const answer = await notify(sent);
      expect(answer?.status).toBe(400);
      expect(await state(order.id)).toEqual(unchanged);
    }

    // Another customer's order, paid with this order's price through this order's payment: it changes that order only.
    const other = await startPaying();
    const elsewhere = fake.addPayment(preference.id, 'card', { external_reference: other.no });
    expect((await notify(fake.notification(elsewhere.id)))?.status).toBe(200);
    expect(await state(order.id)).toEqual(unchanged);
    expect((await state(other.order.id)).status).toBe('success');

    // The genuine one, then the same notification again: applied once.
    const genuine = fake.notification(payment.id);
    expect((await notify(genuine))?.body).toMatchObject({ code: 0, data: { status: 'success', applied: true } });
    expect((await notify(genuine))?.body).toMatchObject({ code: 0, data: { duplicate: true, applied: false } });
    expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
  });

  it('activates a payment whose notification was lost at the next reconciliation', async () => {
    const { order, preference } = await startPaying();
    fake.loseNotifications();
    try {
      await fake.pay(preference.id, 'card');
    } finally {
      fake.loseNotifications(false);
    }
    expect(await app.app.payments.reconcile()).toBe(0);
    expect(await state(order.id)).toMatchObject({ status: 'paying', packages: 0 });
    app.clock.advance(RECONCILE_AFTER_MS + 1000);
    expect(await app.app.payments.reconcile()).toBeGreaterThanOrEqual(1);
    expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
    // Its notification, arriving late after all, is the same event.
    const late = await notify(fake.notification(fake.paymentsOf(order.no)[0]!.id));
    expect(late?.body).toMatchObject({ code: 0, data: { duplicate: true } });
  });

  it('ends the package on a refund or a chargeback made at Mercado Pago', async () => {
    const refunded = await startPaying();
    await press(refunded.redirect, 'card');
    const partly = fake.paymentsOf(refunded.no)[0]!;
    await fake.refund(partly.id, 1);
    expect(await state(refunded.order.id)).toMatchObject({ status: 'success' });
    await fake.refund(partly.id);
    expect(await state(refunded.order.id)).toMatchObject({ status: 'refunded', packages: 1 });
    expect(await ended(refunded.order.id)).toEqual([true]);

    const disputed = await startPaying();
    await press(disputed.redirect, 'card');
    const payment = fake.paymentsOf(disputed.no)[0]!;
    await fake.mediate(payment.id);
    expect(await state(disputed.order.id)).toMatchObject({ status: 'success' });
    await fake.chargeBack(payment.id);
    expect(await state(disputed.order.id)).toMatchObject({ status: 'rejected', packages: 1 });
    expect(await ended(disputed.order.id)).toEqual([true]);
  });

  it('refunds from the panel at Mercado Pago, then ends the package; and not when Mercado Pago does not take it', async () => {
    const { no, order, redirect } = await startPaying();
    await press(redirect, 'card');
    const payment = fake.paymentsOf(no)[0]!;
    fake.setMode('error');
    await expect(app.app.payments.refund(no)).rejects.toThrow(/did not take the refund/);
    fake.setMode('normal');
    expect(payment.status).toBe('approved');
    expect(await state(order.id)).toMatchObject({ status: 'success' });
    expect(await ended(order.id)).toEqual([false]);

    const refunded = await app.app.payments.refund(no);
    expect(refunded?.status).toBe('refunded');
    expect(payment).toMatchObject({ status: 'refunded', transaction_amount_refunded: payment.transaction_amount });
    expect(await ended(order.id)).toEqual([true]);
  });

  it('answers a clear message in the customer’s language when Mercado Pago fails or hangs, and the order stays payable', async () => {
    for (const mode of ['error', 'hang'] as const) {
      const { api, token, no, order } = await newOrder('BRL', seeded.traffic30, 'pt-BR');
      fake.setMode(mode);
      try {
        const answer = await api.post(`/payment/checkout/${no}/pay`, { form: { method: 'mercadopago' }, token });
        expect(answer.body).toMatchObject({ code: 2008, msg: MESSAGES.PAYMENT_GATEWAY_UNAVAILABLE['pt-BR'] });
      } finally {
        fake.setMode('normal');
      }
      const checkout = await api.get(`/payment/checkout/${no}`, { token });
      expect(checkout.body.data.payable).toBe(true);
      const again = await api.post(`/payment/checkout/${no}/pay`, { form: { method: 'mercadopago' }, token });
      expect(again.body).toMatchObject({ code: 0, data: { redirect: expect.stringContaining(fake.url) } });
      expect((await state(order.id)).status).toBe('paying');
    }
  }, 40_000);
});

/** Two instances of one installation behind one load balancer, as in scale/two-instances.test.ts. */
describe.runIf(POSTGRES_URL && REDIS_URL)('Mercado Pago on two instances', () => {
  let fake: FakeMercadoPago;
  let a: TestApp;
  let b: TestApp;
  let seeded: SeededCatalog;

  beforeAll(async () => {
    fake = await startFakeMercadoPago();
    a = await startTestApp({ database: 'postgres', redis: true, env: fake.env() });
    b = await startTestApp({ redis: true, env: fake.env(), joining: a });
    fake.notifyTo(a.url);
    seeded = await seedCatalog(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await fake?.close();
  });

  it('applies fifty copies of one notification, sent to both at once, once', async () => {
    const { api, token, no, order } = await newCustomerOrder(a, {
      email: 'mp.twice@example.com',
      pkgId: seeded.traffic30,
      currency: 'BRL',
    });
    const paid = await httpClient(b.url, { ip: api.ip }).post(`/payment/checkout/${no}/pay`, {
      form: { method: 'mercadopago' },
      token,
    });
    expect(paid.body.code).toBe(0);
    fake.loseNotifications();
    const payment = await fake.pay(fake.preferenceFor(no)!.id, 'card');
    fake.loseNotifications(false);
    const sent = fake.notification(payment.id);
    const to = (instance: TestApp) => ({ ...sent, url: sent.url.replace(a.url, instance.url) });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => fake.deliver(to(i % 2 ? b : a))));
    expect(answers.map((answer) => answer?.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((answer) => answer?.body.data?.applied)).toHaveLength(1);
    expect(await paymentState(a, order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
  });
});
