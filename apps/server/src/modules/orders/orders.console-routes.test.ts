import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../test/catalog.js';
import { type FakeBtcpay, startFakeBtcpay } from '../../test/fakes/btcpay.js';
import { operatorSession } from '../../test/operators.js';
import { newCustomerOrder, newPaidOrder } from '../../test/payments.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

type Listed = { no: string; status: string; currency: string; gateway: string | null; customer: { id: number } };
type Owner = Awaited<ReturnType<typeof operatorSession>>;

describe.each(DATABASES)('the console’s orders on %s', (database) => {
  let app: TestApp;
  let owner: Owner;
  let fake: FakeBtcpay;
  let seeded: Awaited<ReturnType<typeof seedCatalog>>;
  let customers = 0;
  const email = () => `buyer${++customers}.${database}@example.com`;
  const order = (currency = 'USD') => newCustomerOrder(app, { email: email(), pkgId: seeded.monthly, currency });
  const paid = (currency = 'USD') => newPaidOrder(app, { email: email(), pkgId: seeded.monthly, currency });
  const packagesOf = (orderId: number) =>
    app.app.db.selectFrom('user_packages').selectAll().where('order_id', '=', orderId).execute();
  const confirm = { confirm: true };
  const english = { 'accept-language': 'en' };

  /** An order paid at BTCPay (the fake), whose refunds go back through it. */
  async function paidAtBtcpay() {
    const placed = await order();
    const started = await placed.api.post(`/payment/checkout/${placed.no}/pay`, {
      form: { method: 'btcpay' },
      token: placed.token,
    });
    expect(started.body.code).toBe(0);
    const invoice = fake.invoiceOf(placed.no);
    await fake.settle(invoice.id);
    return { ...placed, invoice };
  }

  beforeAll(async () => {
    fake = await startFakeBtcpay();
    app = await startTestApp({
      database,
      env: {
        BTCPAY_URL: fake.url,
        BTCPAY_STORE_ID: fake.storeId,
        BTCPAY_API_KEY: fake.apiKey,
        BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
        // The shortest there is, so that an order times out without the clock passing the console's idle limit.
        ORDER_TIMEOUT_SECONDS: '60',
      },
    });
    fake.webhookUrl = `${app.url}/payment/notify/btcpay`;
    seeded = await seedCatalog(app);
    owner = await operatorSession(app, `owner.${database}@example.com`, 'owner');
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('filters by status, currency, gateway, dates and customer, newest first, a page at a time', {
    timeout: 60_000,
  }, async () => {
    const from = app.clock.now();
    const waiting = await order('USD');
    app.clock.advance(1000);
    const sandboxPaid = await paid('BRL');
    app.clock.advance(1000);
    const manual = await order('USD');
    expect((await owner.client.post(`/api/orders/${manual.no}/mark-paid`, confirm)).body.code).toBe(0);
    app.clock.advance(1000);
    const lapsed = await order('BRL');
    const to = app.clock.now() + 1;
    const list = async (query: string) => {
      const answer = await owner.client.get(`/api/orders?from=${from}&to=${to}&${query}`, english);
      expect(answer.body.code, query).toBe(0);
      return answer.body.data as { orders: Listed[]; next: string | null };
    };
    const nos = async (query: string) => (await list(query)).orders.map((row) => row.no);

    expect(await nos('')).toEqual([lapsed.no, manual.no, sandboxPaid.no, waiting.no]);
    expect((await list('')).orders[0]).toEqual({
      no: lapsed.no,
      status: 'waiting',
      customer: { id: lapsed.order.user_id, email: `buyer4.${database}@example.com` },
      plan: { id: seeded.durational, name: 'Monthly' },
      package: { id: seeded.monthly, label: '30 days', days: 30, trafficBytes: 200 * 2 ** 30 },
      amount: 29.9,
      currency: 'BRL',
      gateway: null,
      paymentRef: null,
      createdAt: lapsed.order.created_at,
    });
    expect(await nos('status=success')).toEqual([manual.no, sandboxPaid.no]);
    expect(await nos('currency=brl')).toEqual([lapsed.no, sandboxPaid.no]);
    expect(await nos('gateway=sandbox')).toEqual([sandboxPaid.no]);
    expect(await nos('gateway=manual&currency=USD')).toEqual([manual.no]);
    expect(await nos(`userId=${waiting.order.user_id}`)).toEqual([waiting.no]);
    expect(await nos(`email=${encodeURIComponent(`BUYER2.${database}@example.com`)}`)).toEqual([sandboxPaid.no]);
    expect(await nos('email=nobody@example.com')).toEqual([]);
    const second = await owner.client.get(
      `/api/orders?from=${sandboxPaid.order.created_at}&to=${manual.order.created_at}`,
    );
    expect(second.body.data.orders.map((row: Listed) => row.no)).toEqual([sandboxPaid.no]);

    // Past their due time the unpaid orders are timed out, whether or not the job has moved them yet.
    app.clock.advance(app.config.orderTimeoutMs);
    expect(await nos('status=timeout')).toEqual([lapsed.no, waiting.no]);
    expect(await nos('status=waiting')).toEqual([]);

    // Two at a time: the cursor leads to the rest, and the last page says there is no more.
    const first = await list('limit=2');
    expect(first.orders.map((row) => row.no)).toEqual([lapsed.no, manual.no]);
    const rest = await list(`limit=2&cursor=${first.next}`);
    expect(rest.orders.map((row) => row.no)).toEqual([sandboxPaid.no, waiting.no]);
    expect(await list(`limit=2&cursor=${rest.next}`)).toEqual({ orders: [], next: null });

    // Timed out by the job or not yet: one list, newest first, a page at a time.
    await app.app.orders.timeOutDue();
    app.clock.advance(1000);
    const late = await order('USD');
    app.clock.advance(app.config.orderTimeoutMs);
    const timedOut = async (query: string) => {
      const answer = await owner.client.get(`/api/orders?from=${from}&status=timeout&limit=2&${query}`, english);
      return answer.body.data as { orders: Listed[]; next: string | null };
    };
    const newest = await timedOut('');
    expect(newest.orders.map((row) => row.no)).toEqual([late.no, lapsed.no]);
    expect((await timedOut(`cursor=${newest.next}`)).orders.map((row) => row.no)).toEqual([waiting.no]);
  });

  it('shows an order with its payment events in the order they came', { timeout: 60_000 }, async () => {
    const { no, invoice } = await paidAtBtcpay();
    app.clock.advance(1000);
    expect((await owner.client.post(`/api/orders/${no}/refund`, confirm)).body.data.status).toBe('refunded');
    const detail = (await owner.client.get(`/api/orders/${no}`)).body.data;
    expect(detail.order).toMatchObject({ no, status: 'refunded', gateway: 'btcpay', paymentRef: invoice.id });
    expect(detail.events).toEqual([
      expect.objectContaining({ gateway: 'btcpay', eventId: `${invoice.id}:InvoiceProcessing`, outcome: 'doing' }),
      expect.objectContaining({ gateway: 'btcpay', outcome: 'success', applied: true, amount: 5.99, currency: 'USD' }),
      expect.objectContaining({ gateway: 'manual', eventId: `refunded-${no}`, outcome: 'refunded', applied: true }),
    ]);
    const times = detail.events.map((event: { receivedAt: number }) => event.receivedAt);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(detail.paidAt).toBe(times[1]);
    expect(fake.pullPayments.filter((pull) => pull.invoiceId === invoice.id)).toHaveLength(1);
  });

  it('marks an order paid once, even twice at once: one package, running, and one audit entry', {
    timeout: 60_000,
  }, async () => {
    const { no, order: row } = await order();
    const answers = await Promise.all([1, 2].map(() => owner.client.post(`/api/orders/${no}/mark-paid`, confirm)));
    expect(answers.map((answer) => answer.body.code).sort()).toEqual([0, 2009]);
    expect(answers.find((answer) => answer.body.code === 0)!.body.data).toMatchObject({ no, status: 'success' });
    expect(await packagesOf(row.id)).toHaveLength(1);
    expect(await app.app.subscriptions.hasLivePackage(row.user_id)).toBe(true);

    const audit = (await owner.client.get(`/api/audit?action=order.markPaid&targetId=${no}`)).body.data.entries;
    expect(audit).toEqual([
      expect.objectContaining({
        actor: owner.email,
        targetType: 'order',
        before: { status: 'waiting' },
        after: { status: 'success' },
      }),
    ]);
  });

  it('refunds once through the gateway, even twice at once, and the package ends', { timeout: 60_000 }, async () => {
    const { no, order: row, invoice } = await paidAtBtcpay();
    expect(await app.app.subscriptions.hasLivePackage(row.user_id)).toBe(true);
    const answers = await Promise.all([1, 2].map(() => owner.client.post(`/api/orders/${no}/refund`, confirm)));
    expect(answers.map((answer) => answer.body.code).sort()).toEqual([0, 2010]);
    expect(fake.pullPayments.filter((pull) => pull.invoiceId === invoice.id)).toHaveLength(1);
    expect((await packagesOf(row.id))[0]!.ended_at).toEqual(expect.any(Number));
    expect(await app.app.subscriptions.hasLivePackage(row.user_id)).toBe(false);
    const audit = (await owner.client.get(`/api/audit?action=order.refund&targetId=${no}`)).body.data.entries;
    expect(audit).toEqual([expect.objectContaining({ before: { status: 'success' }, after: { status: 'refunded' } })]);
  });

  it('changes nothing when the gateway does not take the refund, and records one made outside the panel', {
    timeout: 60_000,
  }, async () => {
    const { no, order: row, invoice } = await paidAtBtcpay();
    fake.mode = 'error';
    const refused = await owner.client.post(`/api/orders/${no}/refund`, confirm, { 'accept-language': 'pt-BR' });
    expect(refused.body).toMatchObject({ code: 2011, msg: expect.stringContaining('nada foi alterado') });
    expect((await app.app.orders.adminFind(no))?.status).toBe('success');
    expect(
      (await owner.client.get(`/api/orders/${no}`)).body.data.events.map((e: { outcome: string }) => e.outcome),
    ).toEqual(['doing', 'success']);

    // The money went back in BTCPay's dashboard: only the package ends, and BTCPay is not asked.
    const recorded = await owner.client.post(`/api/orders/${no}/refund`, { confirm: true, alreadyRefunded: true });
    fake.mode = 'normal';
    expect(recorded.body.data.status).toBe('refunded');
    expect(fake.pullPayments.filter((pull) => pull.invoiceId === invoice.id)).toEqual([]);
    expect((await packagesOf(row.id))[0]!.ended_at).toEqual(expect.any(Number));
  });

  it('charges back a paid order once: rejected, the package ends, audited', { timeout: 60_000 }, async () => {
    const { no, order: row } = await paid();
    const answers = await Promise.all([1, 2].map(() => owner.client.post(`/api/orders/${no}/chargeback`, confirm)));
    expect(answers.map((answer) => answer.body.code).sort()).toEqual([0, 2010]);
    expect((await app.app.orders.adminFind(no))?.status).toBe('rejected');
    expect(await app.app.subscriptions.hasLivePackage(row.user_id)).toBe(false);
    const audit = (await owner.client.get(`/api/audit?action=order.chargeback&targetId=${no}`)).body.data.entries;
    expect(audit).toEqual([expect.objectContaining({ before: { status: 'success' }, after: { status: 'rejected' } })]);
  });

  it('refuses unknown orders, wrong statuses, unconfirmed changes and bad filters, never a 500', {
    timeout: 60_000,
  }, async () => {
    const unknown = '209912312359590000000000';
    for (const answer of [
      await owner.client.get(`/api/orders/${unknown}`),
      await owner.client.post(`/api/orders/${unknown}/mark-paid`, confirm),
      await owner.client.post(`/api/orders/${unknown}/refund`, confirm),
      await owner.client.post(`/api/orders/${unknown}/chargeback`, confirm),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe(404);
    }

    const { no, order: row } = await order();
    const refund = await owner.client.post(`/api/orders/${no}/refund`, confirm, english);
    expect(refund.body).toMatchObject({ code: 2010, msg: 'Only a paid order can be refunded or charged back' });
    expect((await owner.client.post(`/api/orders/${no}/chargeback`, confirm)).body.code).toBe(2010);
    for (const body of [{}, { confirm: false }, { confirm: 'yes' }]) {
      const answer = await owner.client.post(`/api/orders/${no}/mark-paid`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect(await packagesOf(row.id)).toEqual([]);
    expect((await owner.client.get(`/api/orders/${no}`)).body.data.events).toEqual([]);
    expect((await owner.client.post(`/api/orders/${no}/mark-paid`, confirm)).body.code).toBe(0);
    expect((await owner.client.post(`/api/orders/${no}/mark-paid`, confirm, english)).body).toMatchObject({
      code: 2009,
      msg: 'Only an unpaid order can be marked paid',
    });

    for (const path of [
      '/api/orders/123',
      '/api/orders?limit=0',
      '/api/orders?limit=201',
      '/api/orders?status=lost',
      '/api/orders?currency=US',
      '/api/orders?cursor=abc',
      '/api/orders?from=-1',
      '/api/orders?userId=x',
      `/api/orders?gateway=${'g'.repeat(33)}`,
    ]) {
      const answer = await owner.client.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.code, path).toBe(400);
    }
  });
});
