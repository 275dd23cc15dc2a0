import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GIB } from '../../../lib/units.js';
import { type SeededCatalog, seedCatalog } from '../../../test/catalog.js';
import {
  type Delivery,
  FAKE_STRIPE_KEY,
  FAKE_STRIPE_WEBHOOK_SECRET,
  type FakeStripe,
  startFakeStripe,
} from '../../../test/fakes/stripe.js';
import { type HttpClient, httpClient } from '../../../test/http-client.js';
import { newCustomerOrder, paymentState } from '../../../test/payments.js';
import { DATABASES, POSTGRES_URL, REDIS_URL, startTestApp, type TestApp } from '../../../test/test-app.js';
import {
  type GatewayOrder,
  GatewayUnavailable,
  NotificationRejected,
  type PaymentGateway,
  type StartContext,
} from './gateway.js';
import { fromStripeAmount, stripeGateway, toStripeAmount } from './stripe.js';

let seq = 0;
/** A 24-digit order number as the panel makes them. */
const orderNo = () => `20261202000000${String(++seq).padStart(10, '0')}`;

describe('Stripe gateway against the fake Stripe API', () => {
  let fake: FakeStripe;
  let gateway: PaymentGateway;

  const order = (overrides: Partial<GatewayOrder> = {}): GatewayOrder => ({
    no: orderNo(),
    amountMinor: 499,
    decimals: 2,
    currency: 'USD',
    email: 'buyer@example.com',
    description: 'Traffic 100 — 100 GB / 30 days',
    dueAt: Date.now() + 30 * 60_000,
    ...overrides,
  });
  const context = (no: string, language: StartContext['language'] = 'en'): StartContext => ({
    language,
    returnUrl: `https://panel.example/person/status/${no}`,
    notifyUrl: 'https://panel.example/payment/notify/stripe',
  });
  /** A Stripe event as the endpoint receives it: the JSON body and its `Stripe-Signature`. */
  const signed = (event: object, delivery: Parameters<FakeStripe['sign']>[1] = {}) => {
    const rawBody = JSON.stringify(event);
    return { headers: { 'stripe-signature': fake.sign(rawBody, delivery) }, rawBody };
  };
  const lastEvent = () => fake.events[fake.events.length - 1]!;

  async function started(overrides: Partial<GatewayOrder> = {}) {
    const o = order(overrides);
    const { reference } = await gateway.start(o, context(o.no));
    return { order: o, sessionId: reference! };
  }

  beforeAll(async () => {
    fake = await startFakeStripe();
    gateway = stripeGateway({
      secretKey: FAKE_STRIPE_KEY,
      webhookSecret: FAKE_STRIPE_WEBHOOK_SECRET,
      currencies: ['USD', 'BRL', 'MXN', 'CLP', 'COP'],
      apiUrl: fake.url,
    });
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => fake.setMode('normal'));

  it('takes only the configured currencies', () => {
    expect(['USD', 'brl', 'MXN', 'CLP'].map((currency) => gateway.takes(currency))).toEqual([true, true, true, true]);
    expect(gateway.takes('EUR')).toBe(false);
    expect(gateway.name('pt-BR')).toContain('Pix');
  });

  it('starts a Checkout Session with the order in it', async () => {
    const o = order({ currency: 'BRL', amountMinor: 2990 });
    const started = await gateway.start(o, context(o.no, 'zh-Hans'));
    const session = fake.sessionFor(o.no);
    expect(started).toEqual({ redirect: session.url, reference: session.id });
    const sent = fake.requests.filter((request) => request.path === '/v1/checkout/sessions').pop()!;
    expect(sent.params).toMatchObject({
      mode: 'payment',
      line_items: [
        { quantity: '1', price_data: { currency: 'brl', unit_amount: '2990', product_data: { name: o.description } } },
      ],
      customer_email: 'buyer@example.com',
      client_reference_id: o.no,
      metadata: { orderNo: o.no },
      payment_intent_data: { metadata: { orderNo: o.no } },
      success_url: `https://panel.example/person/status/${o.no}`,
      cancel_url: `https://panel.example/person/status/${o.no}`,
      locale: 'zh',
    });
    // The account's dynamic payment methods decide between card, Pix and OXXO.
    expect(sent.params).not.toHaveProperty('payment_method_types');
    expect(sent.headers.authorization).toBe(`Bearer ${FAKE_STRIPE_KEY}`);
    // The order is due in 30 minutes, under Stripe's shortest session: the session takes the shortest it may.
    const expiresIn = Number(sent.params.expires_at) - Date.now() / 1000;
    expect(expiresIn).toBeGreaterThan(30 * 60);
    expect(expiresIn).toBeLessThan(35 * 60);
  });

  it("keeps a session within Stripe's window however far the order's due time is", async () => {
    const { sessionId } = await started({ dueAt: Date.now() + 7 * 24 * 3600_000 });
    const session = fake.sessions.get(sessionId)!;
    expect(Number(session.expires_at) - Date.now() / 1000).toBeLessThanOrEqual(24 * 3600);
    const { sessionId: past } = await started({ dueAt: Date.now() - 3600_000 });
    expect(fake.sessions.get(past)!.status).toBe('open');
  });

  it("converts amounts into Stripe's minor units exactly, and refuses what it cannot charge", async () => {
    expect(toStripeAmount(499, 2, 'USD')).toBe(499);
    expect(toStripeAmount(4990, 0, 'CLP')).toBe(4990);
    // Our catalogue may keep CLP with decimals; Stripe takes whole pesos only.
    expect(toStripeAmount(499000, 2, 'CLP')).toBe(4990);
    expect(toStripeAmount(499050, 2, 'CLP')).toBeNull();
    // COP has two decimals in Stripe even where the catalogue keeps none.
    expect(toStripeAmount(5000, 0, 'COP')).toBe(500000);
    expect(toStripeAmount(4995, 3, 'USD')).toBeNull();
    expect(toStripeAmount(49950, 3, 'USD')).toBe(4995);
    expect(fromStripeAmount(499, 'usd')).toBe('4.99');
    expect(fromStripeAmount(5, 'usd')).toBe('0.05');
    expect(fromStripeAmount(1290, 'brl')).toBe('12.90');
    expect(fromStripeAmount(4990, 'clp')).toBe('4990');
    expect(fromStripeAmount(500000, 'cop')).toBe('5000');

    const clp = await started({ currency: 'CLP', amountMinor: 4990, decimals: 0 });
    expect(fake.sessions.get(clp.sessionId)).toMatchObject({ currency: 'clp', amount_total: 4990 });
    await fake.pay(clp.sessionId, 'card');
    expect(await gateway.verify(signed(lastEvent()))).toMatchObject([
      { outcome: 'success', amount: '4990', currency: 'CLP', orderNo: clp.order.no },
    ]);

    const before = fake.sessions.size;
    const odd = order({ currency: 'CLP', amountMinor: 499050, decimals: 2 });
    await expect(gateway.start(odd, context(odd.no))).rejects.toBeInstanceOf(GatewayUnavailable);
    expect(fake.sessions.size).toBe(before);
  });

  it('reads a card payment: completed and paid is a success, with the PaymentIntent as the payment', async () => {
    const { order: o, sessionId } = await started();
    await fake.pay(sessionId, 'card');
    const event = lastEvent();
    const intent = fake.sessions.get(sessionId)!.payment_intent;
    expect(await gateway.verify(signed(event))).toEqual([
      { eventId: event.id, orderNo: o.no, outcome: 'success', amount: '4.99', currency: 'USD', paymentRef: intent },
    ]);
  });

  it('reads a later payment (Pix, OXXO): pending at completion, then succeeded or failed', async () => {
    const paid = await started({ currency: 'BRL', amountMinor: 2990 });
    await fake.pay(paid.sessionId, 'later');
    expect(await gateway.verify(signed(lastEvent()))).toMatchObject([
      { orderNo: paid.order.no, outcome: 'doing', amount: '29.90', currency: 'BRL' },
    ]);
    await fake.confirmLater(paid.sessionId);
    expect(await gateway.verify(signed(lastEvent()))).toMatchObject([{ orderNo: paid.order.no, outcome: 'success' }]);

    const lapsed = await started({ currency: 'MXN', amountMinor: 9900 });
    await fake.pay(lapsed.sessionId, 'later');
    await fake.failLater(lapsed.sessionId);
    expect(await gateway.verify(signed(lastEvent()))).toMatchObject([{ orderNo: lapsed.order.no, outcome: 'failed' }]);
  });

  it('reads an expired session as cancelled', async () => {
    const { order: o, sessionId } = await started();
    await fake.expire(sessionId);
    expect(await gateway.verify(signed(lastEvent()))).toMatchObject([{ orderNo: o.no, outcome: 'cancel' }]);
  });

  it('reads a full refund, and ignores a partial one', async () => {
    const { order: o, sessionId } = await started();
    await fake.pay(sessionId, 'card');
    await fake.refund(sessionId, 100);
    expect(await gateway.verify(signed(lastEvent()))).toEqual([]);
    await fake.refund(sessionId);
    expect(await gateway.verify(signed(lastEvent()))).toMatchObject([
      { orderNo: o.no, outcome: 'refunded', amount: '4.99', currency: 'USD' },
    ]);
  });

  it('finds the order of a refunded charge through its PaymentIntent when the charge carries no metadata', async () => {
    const { order: o, sessionId } = await started();
    await fake.pay(sessionId, 'card');
    await fake.refund(sessionId);
    const event = structuredClone(lastEvent()) as { data: { object: { metadata: object } } };
    event.data.object.metadata = {};
    expect(await gateway.verify(signed(event))).toMatchObject([{ orderNo: o.no, outcome: 'refunded' }]);
    fake.setMode('error');
    await expect(gateway.verify(signed(event))).rejects.toBeInstanceOf(GatewayUnavailable);
  });

  it('reads a chargeback when the dispute opens or is lost, and not an inquiry or a dispute won', async () => {
    const { order: o, sessionId } = await started();
    await fake.pay(sessionId, 'card');
    const intent = fake.sessions.get(sessionId)!.payment_intent;
    const { dispute } = await fake.openDispute(sessionId);
    const rejected = { orderNo: o.no, outcome: 'rejected', amount: '4.99', currency: 'USD', paymentRef: intent };
    expect(await gateway.verify(signed(lastEvent()))).toMatchObject([rejected]);
    await fake.closeDispute(dispute.id, 'lost');
    expect(await gateway.verify(signed(lastEvent()))).toMatchObject([rejected]);

    const other = await started();
    await fake.pay(other.sessionId, 'card');
    const inquiry = await fake.openDispute(other.sessionId, 'warning_needs_response');
    expect(await gateway.verify(signed(lastEvent()))).toEqual([]);
    await fake.closeDispute(inquiry.dispute.id, 'won');
    expect(await gateway.verify(signed(lastEvent()))).toEqual([]);
  });

  it('refuses what Stripe did not sign, signed with another secret, stale, or altered', async () => {
    const { sessionId } = await started();
    await fake.pay(sessionId, 'card');
    const event = lastEvent();
    const good = signed(event);
    await expect(gateway.verify({ headers: {}, rawBody: good.rawBody })).rejects.toBeInstanceOf(NotificationRejected);
    await expect(gateway.verify(signed(event, { secret: 'whsec_other' }))).rejects.toBeInstanceOf(NotificationRejected);
    const stale = signed(event, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 });
    await expect(gateway.verify(stale)).rejects.toBeInstanceOf(NotificationRejected);
    const altered = { headers: good.headers, rawBody: good.rawBody.replace('"amount_total":499', '"amount_total":1') };
    expect(altered.rawBody).not.toBe(good.rawBody);
    await expect(gateway.verify(altered)).rejects.toBeInstanceOf(NotificationRejected);
    await expect(
      gateway.verify({ headers: { 'stripe-signature': ['a', 'b'] }, rawBody: good.rawBody }),
    ).rejects.toBeInstanceOf(NotificationRejected);
    expect(await gateway.verify(good)).toHaveLength(1);
  });

  it("answers nothing for events it does not act on and sessions that are not the panel's", async () => {
    expect(await gateway.verify(signed(fake.event('customer.created', { id: 'cus_1', object: 'customer' })))).toEqual(
      [],
    );
    const { sessionId } = await started();
    await fake.pay(sessionId, 'card');
    const foreign = structuredClone(lastEvent()) as { data: { object: Record<string, unknown> } };
    foreign.data.object.metadata = {};
    foreign.data.object.client_reference_id = 'cart-42';
    expect(await gateway.verify(signed(foreign))).toEqual([]);
    // Ours by its reference alone (metadata cleared in the dashboard): still read.
    const referenced = structuredClone(foreign);
    referenced.data.object.client_reference_id = (
      lastEvent().data as { object: { client_reference_id: string } }
    ).object.client_reference_id;
    expect(await gateway.verify(signed(referenced))).toMatchObject([{ outcome: 'success' }]);
  });

  it('tells what became of a session when asked, as its notifications would', async () => {
    const open = await started();
    expect(await gateway.status({ orderNo: open.order.no, reference: open.sessionId, currency: 'USD' })).toEqual([]);

    const paid = await started();
    await fake.pay(paid.sessionId, 'card', { lose: true });
    const intent = fake.sessions.get(paid.sessionId)!.payment_intent;
    const ask = () => gateway.status({ orderNo: paid.order.no, reference: paid.sessionId, currency: 'USD' });
    expect(await ask()).toEqual([
      {
        eventId: `${paid.sessionId}:paid`,
        orderNo: paid.order.no,
        outcome: 'success',
        amount: '4.99',
        currency: 'USD',
        paymentRef: intent,
      },
    ]);
    await fake.refund(paid.sessionId, undefined, { lose: true });
    expect((await ask()).map((event) => [event.eventId, event.outcome])).toEqual([
      [`${paid.sessionId}:paid`, 'success'],
      [`${paid.sessionId}:refunded`, 'refunded'],
    ]);

    const later = await started({ currency: 'MXN', amountMinor: 9900 });
    const askLater = () => gateway.status({ orderNo: later.order.no, reference: later.sessionId, currency: 'MXN' });
    await fake.pay(later.sessionId, 'later', { lose: true });
    expect(await askLater()).toMatchObject([{ eventId: `${later.sessionId}:pending`, outcome: 'doing' }]);
    await fake.failLater(later.sessionId, { lose: true });
    expect(await askLater()).toMatchObject([{ eventId: `${later.sessionId}:failed`, outcome: 'failed' }]);

    const expired = await started();
    await fake.expire(expired.sessionId, { lose: true });
    expect(
      await gateway.status({ orderNo: expired.order.no, reference: expired.sessionId, currency: 'USD' }),
    ).toMatchObject([{ eventId: `${expired.sessionId}:expired`, outcome: 'cancel', amount: '4.99' }]);

    await expect(
      gateway.status({ orderNo: open.order.no, reference: 'cs_test_unknown', currency: 'USD' }),
    ).rejects.toBeInstanceOf(GatewayUnavailable);
  });

  it('refunds the payment in full, once however often asked', async () => {
    const { order: o, sessionId } = await started();
    await fake.pay(sessionId, 'card');
    const paymentRef = fake.sessions.get(sessionId)!.payment_intent!;
    const request = { orderNo: o.no, paymentRef, amountMinor: 499, decimals: 2, currency: 'USD' };
    await gateway.refund(request);
    await gateway.refund(request);
    const refunds = fake.requests.filter((sent) => sent.path === '/v1/refunds');
    expect(refunds.slice(-2).map((sent) => sent.params)).toEqual([
      { payment_intent: paymentRef },
      { payment_intent: paymentRef },
    ]);
    expect(fake.intents.get(paymentRef)).toMatchObject({ status: 'succeeded' });
    const refundsOf = (intent: string) =>
      fake.events.filter(
        (event) =>
          event.type === 'charge.refunded' &&
          (event.data as { object: { payment_intent: string } }).object.payment_intent === intent,
      );
    expect(refundsOf(paymentRef)).toHaveLength(1);
    await expect(
      gateway.refund({ ...request, orderNo: orderNo(), paymentRef: 'pi_test_unknown' }),
    ).rejects.toBeInstanceOf(GatewayUnavailable);

    // Refunded in the dashboard first: asking again is done, not an error.
    const other = await started();
    await fake.pay(other.sessionId, 'card');
    await fake.refund(other.sessionId);
    const otherRef = fake.sessions.get(other.sessionId)!.payment_intent!;
    await gateway.refund({ ...request, orderNo: other.order.no, paymentRef: otherRef });
    const answered = fake.requests.filter((sent) => sent.path === '/v1/refunds').at(-1);
    expect(answered?.params).toEqual({ payment_intent: otherRef });
    expect(refundsOf(otherRef)).toHaveLength(1);
  });

  it('gives up on a Stripe that answers 500 or never answers', async () => {
    fake.setMode('error');
    const o = order();
    await expect(gateway.start(o, context(o.no))).rejects.toBeInstanceOf(GatewayUnavailable);
    fake.setMode('hang');
    await expect(gateway.start(o, context(o.no))).rejects.toBeInstanceOf(GatewayUnavailable);
    await expect(
      gateway.refund({ orderNo: o.no, paymentRef: 'pi_test_x', amountMinor: 499, decimals: 2, currency: 'USD' }),
    ).rejects.toBeInstanceOf(GatewayUnavailable);
  });
});

describe.each(DATABASES)('Stripe through the panel on %s', (database) => {
  let fake: FakeStripe;
  let app: TestApp;
  let seeded: SeededCatalog;
  let multi: number;
  let customers = 0;

  const stripeEnv = () => ({
    STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: fake.url,
    STRIPE_CURRENCIES: 'USD,BRL,MXN,CLP',
  });

  /** A new customer's order for a package, in a currency, and its row. */
  async function newOrder(currency = 'USD', language = 'en', pkgId = multi) {
    const email = `stripe${++customers}.${database}@example.com`;
    const { order, ...customer } = await newCustomerOrder(app, { email, pkgId, currency, language });
    return { ...customer, id: order.id };
  }
  const orderRow = (no: string) =>
    app.app.db.selectFrom('orders').selectAll().where('no', '=', no).executeTakeFirstOrThrow();
  const state = (orderId: number) => paymentState(app, orderId);
  const endedPackages = async (orderId: number) =>
    (await app.app.db.selectFrom('user_packages').select('ended_at').where('order_id', '=', orderId).execute()).filter(
      (row) => row.ended_at !== null,
    ).length;

  /** The customer picks Stripe: the panel answers with the fake's hosted page, whose session is the order's. */
  async function payWithStripe(order: { api: HttpClient; token: string; no: string }) {
    const { body } = await order.api.post(`/payment/checkout/${order.no}/pay`, {
      form: { method: 'stripe' },
      token: order.token,
    });
    expect(body).toMatchObject({ code: 0, data: { redirect: expect.stringContaining(fake.url) } });
    const session = fake.sessionFor(order.no);
    expect(body.data.redirect).toBe(session.url);
    return session;
  }

  /** The customer presses a button on Stripe's page and is sent back to the panel. */
  async function press(sessionUrl: string, action: 'card' | 'later' | 'decline') {
    const page = await fetch(sessionUrl);
    expect(page.status).toBe(200);
    const answer = await fetch(`${sessionUrl}/${action}`, { method: 'POST', redirect: 'manual' });
    expect(answer.status).toBe(303);
    return answer.headers.get('location');
  }

  /** An event body posted to the endpoint as Stripe posts it, signed as the delivery says. */
  function post(instance: TestApp, event: object | string, delivery: Delivery = {}) {
    const raw = typeof event === 'string' ? event : JSON.stringify(event);
    return httpClient(instance.url).post('/payment/notify/stripe', {
      raw: { body: raw, type: 'application/json; charset=utf-8' },
      headers: { 'stripe-signature': fake.sign(raw, delivery) },
    });
  }

  beforeAll(async () => {
    fake = await startFakeStripe();
    app = await startTestApp({ database, env: stripeEnv() });
    fake.notifyTo(`${app.url}/payment/notify/stripe`);
    seeded = await seedCatalog(app);
    await app.app.catalog.addCurrency('MXN', 'Peso mexicano', 2, 3);
    await app.app.catalog.addCurrency('EUR', 'Euro', 2, 4);
    multi = (await app.app.catalog.addPackage(seeded.traffic, {
      label: '100 GB / 30 days, any currency',
      days: 30,
      trafficBytes: 100 * GIB,
      prices: [
        { currency: 'USD', price_minor: 499, real_minor: 499 },
        { currency: 'BRL', price_minor: 2990, real_minor: 2990 },
        { currency: 'MXN', price_minor: 9900, real_minor: 9900 },
        { currency: 'CLP', price_minor: 4990, real_minor: 4990 },
        { currency: 'EUR', price_minor: 459, real_minor: 459 },
      ],
    }))!;
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });
  beforeEach(() => fake.setMode('normal'));

  it('offers Stripe for the currencies it is set to take, and not for another', async () => {
    for (const currency of ['USD', 'BRL', 'MXN', 'CLP']) {
      const order = await newOrder(currency);
      const { body } = await order.api.get(`/payment/checkout/${order.no}`, { token: order.token });
      expect(body.data.methods.map((method: { id: string }) => method.id)).toContain('stripe');
    }
    const euro = await newOrder('EUR');
    const { body } = await euro.api.get(`/payment/checkout/${euro.no}`, { token: euro.token });
    expect(body.data.methods.map((method: { id: string }) => method.id)).not.toContain('stripe');
    const refused = await euro.api.post(`/payment/checkout/${euro.no}/pay`, {
      form: { method: 'stripe' },
      token: euro.token,
    });
    expect(refused.body.code).toBe(2006);
    expect(fake.sessions.size).toBe(0);
  });

  it('takes a card payment: back to the order, which is paid with its package running', async () => {
    const order = await newOrder('USD', 'pt-BR');
    const session = await payWithStripe(order);
    expect(session).toMatchObject({
      amount_total: 499,
      currency: 'usd',
      locale: 'pt-BR',
      metadata: { orderNo: order.no },
    });
    expect(session.customer_email).toBe(`stripe${customers}.${database}@example.com`);
    expect(await state(order.id)).toMatchObject({ status: 'paying', packages: 0 });
    const back = await press(String(session.url), 'card');
    expect(back).toBe(`${app.config.publicUrl}/person/status/${order.no}`);
    expect(fake.deliveries.at(-1)).toEqual({ type: 'checkout.session.completed', status: 200 });
    expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
    expect(await orderRow(order.no)).toMatchObject({ payment_ref: fake.sessions.get(session.id)!.payment_intent });
  });

  it('takes a later payment (Pix, OXXO): doing until Stripe confirms it, then paid', async () => {
    const order = await newOrder('BRL');
    const session = await payWithStripe(order);
    await press(String(session.url), 'later');
    expect(await state(order.id)).toEqual({ status: 'doing', packages: 0, events: 1 });
    expect((await fake.confirmLater(session.id))?.body).toMatchObject({ code: 0, data: { status: 'success' } });
    expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 2 });

    const lapsed = await newOrder('MXN');
    const voucher = await payWithStripe(lapsed);
    await press(String(voucher.url), 'later');
    await fake.failLater(voucher.id);
    expect(await state(lapsed.id)).toEqual({ status: 'failed', packages: 0, events: 2 });
  });

  it('leaves a declined order payable, and cancels it when the session expires', async () => {
    const order = await newOrder();
    const session = await payWithStripe(order);
    expect(await press(String(session.url), 'decline')).toBe(`${app.config.publicUrl}/person/status/${order.no}`);
    const { body } = await order.api.get(`/payment/checkout/${order.no}`, { token: order.token });
    expect(body.data).toMatchObject({ payable: true, order: { status: 'paying' } });
    await fake.expire(session.id);
    expect(await state(order.id)).toEqual({ status: 'cancel', packages: 0, events: 1 });
  });

  it('refuses forged, wrongly signed, stale, replayed, mismatched and foreign notifications, changing nothing', async () => {
    const order = await newOrder();
    const session = await payWithStripe(order);
    await fake.pay(session.id, 'card', { lose: true });
    const event = fake.events.at(-1)!;
    const before = await state(order.id);
    expect(before).toEqual({ status: 'paying', packages: 0, events: 0 });

    const unsigned = await httpClient(app.url).post('/payment/notify/stripe', {
      raw: { body: JSON.stringify(event), type: 'application/json' },
    });
    expect(unsigned.status).toBe(400);
    expect((await post(app, event, { secret: 'whsec_forged0000000000' })).status).toBe(400);
    const stale = await post(app, event, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 });
    expect(stale.status).toBe(400);
    // Signed for one body, sent with another.
    const raw = JSON.stringify(event);
    const swapped = await httpClient(app.url).post('/payment/notify/stripe', {
      raw: { body: raw.replace('"amount_total":499', '"amount_total":1'), type: 'application/json' },
      headers: { 'stripe-signature': fake.sign(raw) },
    });
    expect(swapped.status).toBe(400);
    // Genuinely signed, but not this order's price, or another order's currency, or no order of ours.
    const cheaper = structuredClone(event) as { id: string; data: { object: Record<string, unknown> } };
    cheaper.id = `${event.id}_cheap`;
    cheaper.data.object.amount_total = 1;
    expect((await post(app, cheaper)).status).toBe(400);
    const other = await newOrder('BRL');
    const foreign = structuredClone(event) as typeof cheaper;
    foreign.id = `${event.id}_foreign`;
    foreign.data.object.metadata = { orderNo: other.no };
    foreign.data.object.client_reference_id = other.no;
    expect((await post(app, foreign)).status).toBe(400);
    const unknown = structuredClone(foreign);
    unknown.id = `${event.id}_unknown`;
    unknown.data.object.metadata = { orderNo: '209912310000000000000001' };
    expect((await post(app, unknown)).status).toBe(400);
    expect(await state(order.id)).toEqual(before);
    expect(await state(other.id)).toEqual({ status: 'waiting', packages: 0, events: 0 });

    // The genuine one, then its replay: applied once.
    expect((await post(app, event)).body).toMatchObject({ code: 0, data: { status: 'success', duplicate: false } });
    expect((await post(app, event)).body).toMatchObject({ code: 0, data: { status: 'success', duplicate: true } });
    expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
    expect(app.logs.join('\n')).not.toContain(FAKE_STRIPE_WEBHOOK_SECRET);
    expect(app.logs.join('\n')).not.toContain(FAKE_STRIPE_KEY);
  });

  it('ends the package when Stripe refunds the payment in full, and not for a partial refund', async () => {
    const order = await newOrder();
    const session = await payWithStripe(order);
    await press(String(session.url), 'card');
    expect((await fake.refund(session.id, 100))?.status).toBe(200);
    expect(await state(order.id)).toMatchObject({ status: 'success', packages: 1 });
    expect(await endedPackages(order.id)).toBe(0);
    expect((await fake.refund(session.id))?.body).toMatchObject({ code: 0, data: { status: 'refunded' } });
    expect(await state(order.id)).toMatchObject({ status: 'refunded', packages: 1 });
    expect(await endedPackages(order.id)).toBe(1);
  });

  it('ends the package when the customer disputes the payment', async () => {
    const order = await newOrder();
    const session = await payWithStripe(order);
    await press(String(session.url), 'card');
    const { dispute, delivered } = await fake.openDispute(session.id);
    expect(delivered?.body).toMatchObject({ code: 0, data: { status: 'rejected' } });
    expect(await endedPackages(order.id)).toBe(1);
    expect((await fake.closeDispute(dispute.id, 'lost'))?.status).toBe(200);
    expect(await state(order.id)).toMatchObject({ status: 'rejected', packages: 1, events: 3 });
  });

  it('refunds through Stripe when the operator refunds, then ends the package', async () => {
    const order = await newOrder();
    const session = await payWithStripe(order);
    await press(String(session.url), 'card');
    const intent = fake.sessions.get(session.id)!.payment_intent;
    const refunded = await app.app.payments.refund(order.no);
    expect(refunded?.status).toBe('refunded');
    expect(fake.requests.filter((sent) => sent.path === '/v1/refunds').at(-1)?.params).toEqual({
      payment_intent: intent,
    });
    expect(await endedPackages(order.id)).toBe(1);
    // Stripe's own notification of that refund then changes nothing.
    await vi.waitFor(() => expect(fake.deliveries.at(-1)).toEqual({ type: 'charge.refunded', status: 200 }));
    expect(await state(order.id)).toMatchObject({ status: 'refunded', packages: 1 });
  });

  it('says in the customer language that Stripe is unavailable when it fails or hangs, and the order stays payable', async () => {
    const order = await newOrder('USD', 'pt-BR');
    for (const mode of ['error', 'hang'] as const) {
      fake.setMode(mode);
      const { body } = await order.api.post(`/payment/checkout/${order.no}/pay`, {
        form: { method: 'stripe' },
        token: order.token,
      });
      expect(body).toMatchObject({ code: 2008, msg: MESSAGES.PAYMENT_GATEWAY_UNAVAILABLE['pt-BR'] });
      const checkout = await order.api.get(`/payment/checkout/${order.no}`, { token: order.token });
      expect(checkout.body.data.payable).toBe(true);
    }
    fake.setMode('normal');
    const session = await payWithStripe(order);
    await press(String(session.url), 'card');
    expect(await state(order.id)).toMatchObject({ status: 'success', packages: 1 });
  });

  it('charges a CLP order in whole pesos', async () => {
    const order = await newOrder('CLP');
    const session = await payWithStripe(order);
    expect(session).toMatchObject({ amount_total: 4990, currency: 'clp' });
    await press(String(session.url), 'card');
    expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
  });

  // Last: it moves the installation's clock.
  it('activates a payment whose notification was lost at the next reconciliation, and learns a refund', async () => {
    const order = await newOrder();
    const session = await payWithStripe(order);
    await fake.pay(session.id, 'card', { lose: true });
    const later = await newOrder('BRL');
    const pix = await payWithStripe(later);
    await fake.pay(pix.id, 'later', { lose: true });
    expect(await state(order.id)).toEqual({ status: 'paying', packages: 0, events: 0 });
    app.clock.advance(3 * 60_000 + 1000);
    // (The count it returns is not checked: the minute job may run on this instance at the same moment and fix one.)
    await app.app.payments.reconcile();
    expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
    expect(await state(later.id)).toMatchObject({ status: 'doing', packages: 0 });

    await fake.confirmLater(pix.id, { lose: true });
    await fake.refund(pix.id, undefined, { lose: true });
    app.clock.advance(3 * 60_000 + 1000);
    await app.app.payments.reconcile();
    expect(await state(later.id)).toMatchObject({ status: 'refunded', packages: 1 });
    expect(await endedPackages(later.id)).toBe(1);
  });
});

describe.runIf(POSTGRES_URL && REDIS_URL)('Stripe notifications on two instances', () => {
  let fake: FakeStripe;
  let a: TestApp;
  let b: TestApp;
  let seeded: SeededCatalog;

  beforeAll(async () => {
    fake = await startFakeStripe();
    const env = {
      STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    };
    a = await startTestApp({ database: 'postgres', redis: true, env });
    b = await startTestApp({ redis: true, env, joining: a });
    seeded = await seedCatalog(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await fake?.close();
  });

  it('activates once for fifty copies of one notification arriving at both at once', async () => {
    const { api, token, no, order } = await newCustomerOrder(a, {
      email: 'stripe.twice@example.com',
      pkgId: seeded.traffic30,
      currency: 'USD',
    });
    expect((await api.post(`/payment/checkout/${no}/pay`, { form: { method: 'stripe' }, token })).body.code).toBe(0);
    const session = fake.sessionFor(no);
    await fake.pay(session.id, 'card', { lose: true });
    const raw = JSON.stringify(fake.events.at(-1));
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        httpClient((i % 2 ? b : a).url).post('/payment/notify/stripe', {
          raw: { body: raw, type: 'application/json; charset=utf-8' },
          headers: { 'stripe-signature': fake.sign(raw) },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((answer) => answer.body.data.duplicate === false)).toHaveLength(1);
    expect(await paymentState(a, order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
  });
});
