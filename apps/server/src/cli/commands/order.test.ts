import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIB } from '../../lib/units.js';
import { signUp } from '../../test/accounts.js';
import { adminDatabase, adminInProcess, expectFailure, jsonOf } from '../../test/admin-cli.js';
import { type FakeBtcpay, startFakeBtcpay } from '../../test/fakes/btcpay.js';
import { type HttpClient, httpClient } from '../../test/http-client.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

describe.each(DATABASES)('admin order on %s', (database) => {
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  let app: TestApp;
  let api: HttpClient;
  let token: string;
  let userId: number;
  let pkgId: number;
  const email = `buyer.${database}@example.com`;
  // A gateway for the refunds that go through one; the command line is configured as the server is.
  let fake: FakeBtcpay;
  let gatewayEnv: Record<string, string>;
  // In this process: admin.test.ts and the other commands' suites run the real child process.
  const run = (...args: string[]) => adminInProcess(db.url, args, gatewayEnv);

  async function placeOrder(): Promise<string> {
    const { body } = await api.post('/mutenet/user/order/create', {
      form: { pkgId: String(pkgId), currency: 'USD' },
      token,
    });
    expect(body.code).toBe(0);
    return body.data.orderNo;
  }
  /** The customer packages that the order's payment made: never more than one. */
  const packagesOf = async (no: string) => {
    const order = await app.app.orders.adminFind(no);
    return app.app.db.selectFrom('user_packages').selectAll().where('order_id', '=', order!.id).execute();
  };

  beforeAll(async () => {
    db = await adminDatabase(database);
    fake = await startFakeBtcpay();
    gatewayEnv = {
      BTCPAY_URL: fake.url,
      BTCPAY_STORE_ID: fake.storeId,
      BTCPAY_API_KEY: fake.apiKey,
      BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
    };
    app = await startTestApp({ env: { DATABASE_URL: db.url, ...gatewayEnv } });
    fake.webhookUrl = `${app.url}/payment/notify/btcpay`;
    const { catalog } = app.app;
    await catalog.addCurrency('USD', 'US Dollar', 2, 0);
    const planId = await catalog.addPlan({
      group: 'durational',
      names: { en: 'Unlimited', 'pt-BR': 'Ilimitado', 'zh-Hans': '无限' },
      contents: { en: '', 'pt-BR': '', 'zh-Hans': '' },
    });
    pkgId = (await catalog.addPackage(planId, {
      label: '30 days',
      days: 30,
      trafficBytes: 200 * GIB,
      prices: [{ currency: 'USD', price_minor: 599, real_minor: 499 }],
    }))!;
    api = httpClient(app.url, { language: 'en' });
    token = await signUp(app, api, email);
    userId = (await app.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow())
      .id;
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    await db?.drop();
  });

  it('lists and shows orders, by customer and status', { timeout: 60_000 }, async () => {
    const no = await placeOrder();
    const [all, mine, nobody, paid, shown] = await Promise.all([
      run('order', 'list', '--json'),
      run('order', 'list', '--user', email.toUpperCase(), '--status', 'waiting', '--limit', '5', '--json'),
      run('order', 'list', '--user', 'nobody@example.com'),
      run('order', 'list', '--status', 'success', '--json'),
      run('order', 'show', no),
    ]);
    const expected = {
      no,
      status: 'waiting',
      userId,
      email,
      planNames: { en: 'Unlimited', 'pt-BR': 'Ilimitado', 'zh-Hans': '无限' },
      packageId: pkgId,
      packageLabel: '30 days',
      days: 30,
      trafficBytes: 200 * GIB,
      currency: 'USD',
      amount: 4.99,
      gateway: null,
    };
    expect(jsonOf(all)).toEqual([expect.objectContaining(expected)]);
    expect(jsonOf(mine)).toEqual([expect.objectContaining(expected)]);
    expectFailure(nobody, 1, /^admin: no user with the email nobody@example.com$/m);
    expect(jsonOf(paid)).toEqual([]);
    expect(shown).toMatchObject({ status: 0, stderr: '' });
    expect(shown.stdout).toContain(`no:       ${no}\nstatus:   waiting\nuser:     ${email} (id ${userId})\n`);
    expect(shown.stdout).toContain('amount:   USD 4.99\n');
    // Closed by the customer, so that the next test may order the same plan.
    expect((await api.put(`/mutenet/user/orders/cancel?no=${no}`, { token })).body.code).toBe(0);
  });

  it('marks an order paid once, then refunds it and ends its package', { timeout: 60_000 }, async () => {
    const no = await placeOrder();
    const refusedRefund = await run('order', 'refund', no);
    expectFailure(
      refusedRefund,
      1,
      new RegExp(`^admin: order ${no} is waiting: only a paid \\(success\\) order can be refunded$`, 'm'),
    );
    expect(await packagesOf(no)).toEqual([]);

    const paid = await run('order', 'mark-paid', no, '--json');
    expect(jsonOf(paid)).toMatchObject({ no, status: 'success', userId });
    expect(await packagesOf(no)).toEqual([expect.objectContaining({ user_id: userId, ended_at: null, days: 30 })]);

    // Run twice (as an operator may): refused, naming the status, and the package is not activated again.
    const twice = await run('order', 'mark-paid', no);
    expectFailure(
      twice,
      1,
      new RegExp(`^admin: order ${no} is success: only an unpaid order .* can be marked paid$`, 'm'),
    );
    expect(await packagesOf(no)).toHaveLength(1);

    const refunded = await run('order', 'refund', no);
    expect(refunded).toMatchObject({ status: 0, stderr: '' });
    expect(refunded.stdout).toMatch(
      new RegExp(`^order ${no} refunded: its package has ended\\n(.*\\n)*status: +refunded\\n`),
    );
    const [ended] = await packagesOf(no);
    expect(ended!.ended_at).toEqual(expect.any(Number));
    expect(ended!.ends_at).toBeLessThanOrEqual(Date.now());
    expect(await app.app.subscriptions.hasLivePackage(userId)).toBe(false);
    const orders = (await api.get(`/mutenet/user/orders?no=${no}`, { token })).body.data;
    expect(orders).toEqual([expect.objectContaining({ no, status: 'refunded' })]);
  });

  it('refunds a gateway payment through the gateway first, and changes nothing when it fails', {
    timeout: 60_000,
  }, async () => {
    const no = await placeOrder();
    const started = await api.post(`/payment/checkout/${no}/pay`, { form: { method: 'btcpay' }, token });
    expect(started.body.code).toBe(0);
    const invoice = fake.invoiceOf(no);
    await fake.settle(invoice.id);
    expect((await app.app.orders.adminFind(no))?.status).toBe('success');

    fake.mode = 'error';
    expectFailure(
      await run('order', 'refund', no),
      1,
      /btcpay did not take the refund of order \d{24} .*nothing changed/,
    );
    expect((await app.app.orders.adminFind(no))?.status).toBe('success');
    expect(fake.pullPayments).toEqual([]);

    fake.mode = 'normal';
    const refunded = await run('order', 'refund', no);
    expect(refunded).toMatchObject({ status: 0, stderr: '' });
    expect(refunded.stdout).toMatch(new RegExp(`^order ${no} refunded: its package has ended\n`));
    expect(fake.pullPayments).toEqual([expect.objectContaining({ invoiceId: invoice.id })]);
    expect((await packagesOf(no))[0]?.ended_at).not.toBeNull();
  });

  it('records a refund made outside the panel without asking the gateway', { timeout: 60_000 }, async () => {
    const no = await placeOrder();
    await api.post(`/payment/checkout/${no}/pay`, { form: { method: 'btcpay' }, token });
    await fake.settle(fake.invoiceOf(no).id);
    fake.mode = 'error';
    const recorded = await run('order', 'refund', no, '--already-refunded');
    fake.mode = 'normal';
    expect(recorded).toMatchObject({ status: 0, stderr: '' });
    expect(recorded.stdout).toMatch(new RegExp(`^order ${no} recorded as refunded: its package has ended\n`));
    expect(fake.pullPayments.filter((pull) => pull.invoiceId === fake.invoiceOf(no).id)).toEqual([]);
    expect((await app.app.orders.adminFind(no))?.status).toBe('refunded');
  });

  it('charges back a paid order, and refuses unknown orders', { timeout: 60_000 }, async () => {
    const no = await placeOrder();
    expect(jsonOf(await run('order', 'mark-paid', no, '--json')).status).toBe('success');
    expect(await app.app.subscriptions.hasLivePackage(userId)).toBe(true);

    const charged = await run('order', 'chargeback', no, '--json');
    expect(jsonOf(charged)).toMatchObject({ no, status: 'rejected' });
    expect((await packagesOf(no))[0]!.ended_at).toEqual(expect.any(Number));
    expect(await app.app.subscriptions.hasLivePackage(userId)).toBe(false);

    const unknown = '209912312359590000000000';
    const [again, show, markPaid, refund] = await Promise.all([
      run('order', 'chargeback', no),
      run('order', 'show', unknown),
      run('order', 'mark-paid', unknown),
      run('order', 'refund', unknown),
    ]);
    expectFailure(
      again,
      1,
      new RegExp(`^admin: order ${no} is rejected: only a paid \\(success\\) order can be charged back$`, 'm'),
    );
    for (const result of [show, markPaid, refund])
      expectFailure(result, 1, new RegExp(`^admin: order ${unknown} not found$`, 'm'));
  });
});
