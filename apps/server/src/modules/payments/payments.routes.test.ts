import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../test/accounts.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { holdCustomer, settlesWithin } from '../../test/hold-customer.js';
import { httpClient } from '../../test/http-client.js';
import { majorAmount, newCustomerOrder, paymentState } from '../../test/payments.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { SANDBOX_SIGNATURE_HEADER, signSandbox } from './gateways/sandbox.gateway.js';

const SECRET = 'sandbox-secret-for-tests';
const en = (key: keyof typeof MESSAGES) => MESSAGES[key].en;

describe.each(DATABASES)('payments on %s', (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let seq = 0;

  const orderOfNewCustomer = () =>
    newCustomerOrder(app, { email: `payer${++seq}.${database}@example.com`, pkgId: seeded.traffic30, currency: 'USD' });

  function notify(payload: Record<string, unknown>, signature?: string) {
    const raw = JSON.stringify(payload);
    return httpClient(app.url).post('/payment/notify/sandbox', {
      raw: { body: raw, type: 'application/json' },
      headers: { [SANDBOX_SIGNATURE_HEADER]: signature ?? signSandbox(SECRET, raw) },
    });
  }

  const state = (orderId: number) => paymentState(app, orderId);

  beforeAll(async () => {
    app = await startTestApp({ database, env: { PAYMENT_SANDBOX_SECRET: SECRET } });
    seeded = await seedCatalog(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('checkout', () => {
    it('shows the order and the sandbox method, by header or by the token cookie', async () => {
      const { api, token, no } = await orderOfNewCustomer();
      const byHeader = await api.get(`/payment/checkout/${no}`, { token });
      expect(byHeader.body).toMatchObject({
        code: 0,
        data: { order: { no, status: 'waiting', totalPrice: 4.99 }, methods: [{ id: 'sandbox' }], payable: true },
      });
      const byCookie = await api.get(`/payment/checkout/${no}`, { headers: { cookie: `token=${token}` } });
      expect(byCookie.body).toEqual(byHeader.body);
      expect((await api.get(`/payment/checkout/${no}`)).status).toBe(401);
      expect((await api.get(`/payment/checkout/${no}`, { headers: { cookie: 'token=forged' } })).status).toBe(401);
    });

    it('takes a state-changing call by cookie only from its own origin', async () => {
      const { api, token, no } = await orderOfNewCustomer();
      const cookie = `token=${token}`;
      const foreign = await api.post(`/payment/sandbox/${no}/approve`, {
        headers: { cookie, origin: 'https://evil.example' },
      });
      expect(foreign.status).toBe(403);
      const none = await api.post(`/payment/sandbox/${no}/approve`, { headers: { cookie } });
      expect(none.status).toBe(403);
      const own = await api.post(`/payment/sandbox/${no}/approve`, {
        headers: { cookie, origin: new URL(app.config.publicUrl).origin },
      });
      expect(own.body).toMatchObject({ code: 0, data: { status: 'success' } });
    });

    it("refuses an unknown method, an unknown action and another customer's order", async () => {
      const { api, token, no } = await orderOfNewCustomer();
      expect((await api.post(`/payment/checkout/${no}/pay`, { form: { method: 'paypal' }, token })).body).toMatchObject(
        {
          code: 2006,
          msg: en('PAYMENT_METHOD_UNAVAILABLE'),
        },
      );
      expect((await api.post(`/payment/sandbox/${no}/steal`, { token })).status).toBe(400);
      const stranger = await orderOfNewCustomer();
      expect((await stranger.api.get(`/payment/checkout/${no}`, { token: stranger.token })).body.code).toBe(2003);
      expect(
        (await stranger.api.post(`/payment/checkout/${no}/pay`, { form: { method: 'sandbox' }, token: stranger.token }))
          .body.code,
      ).toBe(2003);
    });
  });

  describe('notifications', () => {
    it('applies a signed notification once, however often it arrives', async () => {
      const { order } = await orderOfNewCustomer();
      const event = {
        eventId: 'evt-1',
        orderNo: order.no,
        outcome: 'success',
        amount: majorAmount(order),
        currency: 'USD',
      };
      expect((await notify(event)).body).toMatchObject({
        code: 0,
        data: { status: 'success', duplicate: false, applied: true },
      });
      expect((await notify(event)).body).toMatchObject({
        code: 0,
        data: { status: 'success', duplicate: true, applied: false },
      });
      expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
    });

    it('applies concurrent copies and concurrent different approvals once', async () => {
      const { order } = await orderOfNewCustomer();
      const event = {
        eventId: 'evt-same',
        orderNo: order.no,
        outcome: 'success',
        amount: majorAmount(order),
        currency: 'USD',
      };
      const copies = await Promise.all(Array.from({ length: 10 }, () => notify(event)));
      expect(copies.every((copy) => copy.status === 200)).toBe(true);
      expect(copies.filter((copy) => copy.body.data.applied)).toHaveLength(1);
      expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });

      const other = (await orderOfNewCustomer()).order;
      const distinct = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          notify({
            eventId: `evt-distinct-${i}`,
            orderNo: other.no,
            outcome: 'success',
            amount: majorAmount(other),
            currency: 'USD',
          }),
        ),
      );
      expect(distinct.filter((answer) => answer.body.data.applied)).toHaveLength(1);
      expect(await state(other.id)).toEqual({ status: 'success', packages: 1, events: 10 });
    });

    // PostgreSQL only: SQLite writes one transaction at a time anyway (see holdCustomer).
    if (database === 'postgres') {
      it('refunds only once whoever holds the customer lets go', async () => {
        const { order } = await orderOfNewCustomer();
        const base = { orderNo: order.no, amount: majorAmount(order), currency: 'USD' };
        await notify({ ...base, eventId: 'held-success', outcome: 'success' });
        const hold = await holdCustomer(app, order.user_id);
        const refund = notify({ ...base, eventId: 'held-refund', outcome: 'refunded' });
        try {
          expect(await settlesWithin(refund, 400)).toBe(false);
        } finally {
          await hold.release();
        }
        expect((await refund).body.data).toMatchObject({ status: 'refunded', applied: true });
        expect((await state(order.id)).status).toBe('refunded');
      });
    }

    it('ignores a notification that arrives out of order', async () => {
      const { order } = await orderOfNewCustomer();
      const base = { orderNo: order.no, amount: majorAmount(order), currency: 'USD' };
      await notify({ ...base, eventId: 'late-pending', outcome: 'doing' });
      await notify({ ...base, eventId: 'late-success', outcome: 'success' });
      const stale = await notify({ ...base, eventId: 'late-failed', outcome: 'failed' });
      expect(stale.body.data).toEqual({ status: 'success', duplicate: false, applied: false });
      expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 3 });
      await notify({ ...base, eventId: 'refund-1', outcome: 'refunded' });
      expect((await state(order.id)).status).toBe('refunded');
    });

    it('keeps a refund that arrives before the success it reverses, and applies it with the success', async () => {
      const { order } = await orderOfNewCustomer();
      const base = { orderNo: order.no, amount: majorAmount(order), currency: 'USD' };
      const early = await notify({ ...base, eventId: 'early-refund', outcome: 'refunded' });
      expect(early.body.data).toEqual({ status: 'waiting', duplicate: false, applied: false });
      const success = await notify({ ...base, eventId: 'late-paid', outcome: 'success' });
      expect(success.body.data).toEqual({ status: 'refunded', duplicate: false, applied: true });
      expect(await state(order.id)).toEqual({ status: 'refunded', packages: 1, events: 2 });
      const ended = await app.app.db
        .selectFrom('user_packages')
        .select('ended_at')
        .where('order_id', '=', order.id)
        .executeTakeFirstOrThrow();
      expect(ended.ended_at).not.toBeNull();
      // A replay of either changes nothing more.
      expect((await notify({ ...base, eventId: 'late-paid', outcome: 'success' })).body.data.duplicate).toBe(true);
      expect(await state(order.id)).toEqual({ status: 'refunded', packages: 1, events: 2 });
    });

    it('activates a payment that arrives after its order timed out or was closed', async () => {
      const timedOut = (await orderOfNewCustomer()).order;
      const closed = await orderOfNewCustomer();
      expect(
        (await closed.api.put(`/mutenet/user/orders/cancel?no=${closed.no}`, { token: closed.token })).body.code,
      ).toBe(0);
      app.clock.advance(31 * 60_000);
      await app.app.orders.timeOutDue();
      expect((await state(timedOut.id)).status).toBe('timeout');
      for (const order of [timedOut, closed.order]) {
        const paid = await notify({
          eventId: `late-${order.no}`,
          orderNo: order.no,
          outcome: 'success',
          amount: majorAmount(order),
          currency: 'USD',
        });
        expect(paid.body.data).toEqual({ status: 'success', duplicate: false, applied: true });
        expect(await state(order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
      }
    });

    it('refuses unsigned, wrongly signed, malformed and mismatched notifications, changing nothing', async () => {
      const { order } = await orderOfNewCustomer();
      const event = {
        eventId: 'evt-x',
        orderNo: order.no,
        outcome: 'success',
        amount: majorAmount(order),
        currency: 'USD',
      };
      const raw = JSON.stringify(event);
      const unsigned = await httpClient(app.url).post('/payment/notify/sandbox', {
        raw: { body: raw, type: 'application/json' },
      });
      expect(unsigned.status).toBe(400);
      expect((await notify(event, signSandbox('wrong-secret-000000', raw))).status).toBe(400);
      expect((await notify({ ...event, amount: '0.01' })).status).toBe(400);
      expect((await notify({ ...event, currency: 'BRL' })).status).toBe(400);
      expect((await notify({ ...event, orderNo: '999999999999999999999999' })).status).toBe(400);
      expect((await notify({ ...event, outcome: 'stolen' })).status).toBe(400);
      const garbage = await httpClient(app.url).post('/payment/notify/sandbox', {
        raw: { body: 'not json', type: 'text/plain' },
        headers: { [SANDBOX_SIGNATURE_HEADER]: signSandbox(SECRET, 'not json') },
      });
      expect(garbage.status).toBe(400);
      expect(
        (await httpClient(app.url).post('/payment/notify/paypal', { raw: { body: raw, type: 'application/json' } }))
          .status,
      ).toBe(400);
      expect(await state(order.id)).toEqual({ status: 'waiting', packages: 0, events: 0 });
      expect(app.logs.join('')).toContain('payment notification refused');
    });
  });
});

describe('payments without the sandbox', () => {
  it('offers no method and refuses the sandbox buttons in production', async () => {
    const app = await startTestApp({ env: { PAYMENT_SANDBOX: 'false' } });
    try {
      await seedCatalog(app);
      const api = httpClient(app.url, { language: 'en' });
      const token = await signUp(app, api, 'prod@example.com');
      const { body } = await api.post('/mutenet/user/order/create', { form: { pkgId: '1', currency: 'USD' }, token });
      const checkout = await api.get(`/payment/checkout/${body.data.orderNo}`, { token });
      expect(checkout.body.data.methods).toEqual([]);
      expect((await api.post(`/payment/sandbox/${body.data.orderNo}/approve`, { token })).body.code).toBe(2006);
    } finally {
      await app.close();
    }
  });

  it('starts in production with no gateway, and warns the operator', async () => {
    const app = await startTestApp({ env: { NODE_ENV: 'production', CAPTCHA_TEST_CODE: '' } });
    try {
      expect(app.app.payments.methods('USD', 'en')).toEqual([]);
      expect(app.logs.join('')).toContain('no payment gateway is configured');
    } finally {
      await app.close();
    }
  });
});
