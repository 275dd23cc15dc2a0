import { MESSAGES, ORDER_NO_PATTERN } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../test/accounts.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { type HttpClient, httpClient } from '../../test/http-client.js';
import { orderRow } from '../../test/rows.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

const en = (key: keyof typeof MESSAGES) => MESSAGES[key].en;
const DAY = 24 * 3600_000;

describe.each(DATABASES)('orders on %s', (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let seq = 0;

  /** A new signed-up customer with a client of their own. */
  async function customer() {
    const api = httpClient(app.url, { language: 'en' });
    const token = await signUp(app, api, `buyer${++seq}.${database}@example.com`);
    const create = (form: Record<string, string>) => api.post('/mutenet/user/order/create', { form, token });
    const orders = (no?: string) =>
      api.get(`/mutenet/user/orders${no === undefined ? '' : `?no=${encodeURIComponent(no)}`}`, { token });
    const sandbox = (no: string, action: string) => api.post(`/payment/sandbox/${no}/${action}`, { token });
    const userId = (await app.app.db.selectFrom('users').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow())
      .id;
    return { api, token, create, orders, sandbox, userId };
  }

  async function placed(
    buyer: Awaited<ReturnType<typeof customer>>,
    pkgId: number,
    extra: Record<string, string> = {},
  ) {
    const { body } = await buyer.create({ pkgId: String(pkgId), currency: 'USD', ...extra });
    expect(body.code).toBe(0);
    return body.data.orderNo as string;
  }

  const packagesOf = (userId: number) =>
    app.app.db.selectFrom('user_packages').selectAll().where('user_id', '=', userId).orderBy('starts_at').execute();

  beforeAll(async () => {
    app = await startTestApp({ database });
    seeded = await seedCatalog(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('needs a session for every order call', async () => {
    const api: HttpClient = httpClient(app.url);
    expect((await api.post('/mutenet/user/order/create', { form: { pkgId: '1', currency: 'USD' } })).status).toBe(401);
    expect((await api.get('/mutenet/user/orders')).status).toBe(401);
    expect((await api.put('/mutenet/user/orders/cancel?no=1')).status).toBe(401);
  });

  it('places a waiting order at the database price, whatever price the client sends', async () => {
    const buyer = await customer();
    const { body } = await buyer.create({
      pkgId: String(seeded.traffic30),
      currency: 'BRL',
      price: '0.01',
      totalPrice: '0',
    });
    expect(body).toMatchObject({ code: 0, data: { orderNo: expect.stringMatching(ORDER_NO_PATTERN) } });
    const list = await buyer.orders();
    expect(list.body.data).toEqual([
      {
        no: body.data.orderNo,
        pdName: 'Traffic 100',
        pkgType: '100 GB / 30 days',
        status: 'waiting',
        currency: 'BRL',
        totalPrice: 24.9,
        createAt: expect.any(Number),
      },
    ]);
  });

  it.each([
    [{ pkgId: '' }, 'PACKAGE_NOT_FOUND'],
    [{ pkgId: '-1' }, 'PACKAGE_NOT_FOUND'],
    [{ pkgId: '0' }, 'PACKAGE_NOT_FOUND'],
    [{ pkgId: '1.5' }, 'PACKAGE_NOT_FOUND'],
    [{ pkgId: 'abc' }, 'PACKAGE_NOT_FOUND'],
    [{ pkgId: '99999999999999999999' }, 'PACKAGE_NOT_FOUND'],
    [{ pkgId: '999999' }, 'PACKAGE_NOT_FOUND'],
    [{ pkgId: "1' OR '1'='1" }, 'PACKAGE_NOT_FOUND'],
    [{ currency: '' }, 'CURRENCY_NOT_AVAILABLE'],
    [{ currency: 'usd' }, 'CURRENCY_NOT_AVAILABLE'],
    [{ currency: 'EUR' }, 'CURRENCY_NOT_AVAILABLE'],
    [{ currency: 'CLP' }, 'CURRENCY_NOT_AVAILABLE'],
    [{ currency: 'USDX' }, 'CURRENCY_NOT_AVAILABLE'],
    [{ force: 'yes' }, 'BAD_REQUEST'],
  ] as const)('refuses %j with %s', async (change, key) => {
    const buyer = await customer();
    const { status, body } = await buyer.create({ pkgId: String(seeded.traffic30), currency: 'USD', ...change });
    expect(status).toBeLessThan(500);
    expect(body).toMatchObject({ msg: en(key) });
    expect((await buyer.orders()).body.data).toEqual([]);
  });

  it('answers code 3 with the unfinished order of the same plan, not of another plan', async () => {
    const buyer = await customer();
    const first = await placed(buyer, seeded.traffic30);
    const again = await buyer.create({ pkgId: String(seeded.traffic30), currency: 'BRL' });
    expect(again.body).toEqual({ code: 3, msg: en('ORDER_UNFINISHED'), data: [{ no: first }] });
    expect((await buyer.create({ pkgId: String(seeded.monthly), currency: 'USD' })).body.code).toBe(0);
  });

  it('makes exactly one waiting order of 20 parallel requests for one plan', async () => {
    const buyer = await customer();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => buyer.create({ pkgId: String(seeded.traffic30), currency: 'USD' })),
    );
    const created = answers.filter((answer) => answer.body.code === 0);
    expect(created).toHaveLength(1);
    const no = created[0]!.body.data.orderNo;
    for (const answer of answers.filter((a) => a.body.code !== 0)) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ code: 3, msg: en('ORDER_UNFINISHED'), data: [{ no }] });
    }
    expect((await buyer.orders()).body.data.map((order: { no: string }) => order.no)).toEqual([no]);
  });

  it('answers code 4 while a package is live, and queues the new one after it with force=1', async () => {
    const buyer = await customer();
    const first = await placed(buyer, seeded.traffic30);
    expect((await buyer.sandbox(first, 'approve')).body).toMatchObject({ code: 0, data: { status: 'success' } });
    const refused = await buyer.create({ pkgId: String(seeded.monthly), currency: 'USD' });
    expect(refused.body).toEqual({ code: 4, msg: en('PACKAGE_ACTIVE'), data: null });
    const second = await placed(buyer, seeded.monthly, { force: '1' });
    await buyer.sandbox(second, 'approve');
    const [active, queued] = await packagesOf(buyer.userId);
    expect(active!.ends_at - active!.starts_at).toBe(30 * DAY);
    expect(queued!.starts_at).toBe(active!.ends_at);
    expect(queued!.ends_at).toBe(active!.ends_at + 30 * DAY);
  });

  it("lists newest first, finds one by number, and never shows another customer's order", async () => {
    const buyer = await customer();
    const older = await placed(buyer, seeded.traffic30);
    app.clock.advance(1000);
    const newer = await placed(buyer, seeded.monthly);
    expect((await buyer.orders()).body.data.map((order: { no: string }) => order.no)).toEqual([newer, older]);
    expect((await buyer.orders(older)).body.data.map((order: { no: string }) => order.no)).toEqual([older]);
    const stranger = await customer();
    expect((await stranger.orders(older)).body).toMatchObject({ code: 0, data: [] });
    expect((await stranger.orders("' OR 1=1 --")).body.data).toEqual([]);
    const cancel = await stranger.api.put(`/mutenet/user/orders/cancel?no=${older}`, { token: stranger.token });
    expect(cancel.body).toMatchObject({ code: 2003, msg: en('ORDER_NOT_FOUND') });
    expect((await stranger.sandbox(older, 'approve')).body.code).toBe(2003);
    expect((await buyer.orders(older)).body.data[0].status).toBe('waiting');
  });

  it('lists the newest 500 orders and still finds an older one by number', async () => {
    const buyer = await customer();
    const orderNo = (index: number) => `20200101000000${String(index).padStart(10, '0')}`;
    await app.app.db
      .insertInto('orders')
      .values(
        Array.from({ length: 501 }, (_, index) =>
          orderRow(seeded, { userId: buyer.userId, no: orderNo(index), status: 'close', at: 1_000_000 + index }),
        ),
      )
      .execute();
    const listed = (await buyer.orders()).body.data.map((order: { no: string }) => order.no);
    expect(listed).toHaveLength(500);
    expect(listed[0]).toBe(orderNo(500));
    expect(listed).not.toContain(orderNo(0));
    expect((await buyer.orders(orderNo(0))).body.data).toMatchObject([{ no: orderNo(0), status: 'close' }]);
    expect((await buyer.orders(orderNo(500))).body.data).toMatchObject([{ no: orderNo(500) }]);
    expect((await buyer.orders(orderNo(999))).body.data).toEqual([]);
  });

  it('cancels only a waiting order', async () => {
    const buyer = await customer();
    const no = await placed(buyer, seeded.traffic30);
    const cancel = () => buyer.api.put(`/mutenet/user/orders/cancel?no=${no}`, { token: buyer.token });
    expect((await cancel()).body).toEqual({ code: 0, msg: en('ORDER_CANCELLED'), data: null });
    expect((await buyer.orders(no)).body.data[0].status).toBe('close');
    expect((await cancel()).body).toMatchObject({ code: 2004, msg: en('ORDER_NOT_CANCELLABLE') });
    expect((await buyer.sandbox(no, 'approve')).body.code).toBe(2007);

    const paying = await placed(buyer, seeded.traffic30);
    await buyer.api.post(`/payment/checkout/${paying}/pay`, { form: { method: 'sandbox' }, token: buyer.token });
    expect((await buyer.orders(paying)).body.data[0].status).toBe('paying');
    const refused = await buyer.api.put(`/mutenet/user/orders/cancel?no=${paying}`, { token: buyer.token });
    expect(refused.body.code).toBe(2004);
    expect((await buyer.api.put('/mutenet/user/orders/cancel', { token: buyer.token })).body.code).toBe(2003);
  });

  it('times an unpaid order out after 30 minutes, on read and by the job', async () => {
    const buyer = await customer();
    const no = await placed(buyer, seeded.traffic30);
    app.clock.advance(30 * 60_000 + 1000);
    expect((await buyer.orders(no)).body.data[0].status).toBe('timeout');
    expect((await buyer.sandbox(no, 'approve')).body.code).toBe(2007);
    // A timed-out order does not block a new one for the same plan.
    const next = await placed(buyer, seeded.traffic30);
    expect(next).not.toBe(no);
    const row = () => app.app.db.selectFrom('orders').select('status').where('no', '=', no).executeTakeFirstOrThrow();
    expect((await row()).status).toBe('timeout');
    await placed(await customer(), seeded.monthly);
    app.clock.advance(30 * 60_000 + 1000);
    expect(await app.app.orders.timeOutDue()).toBeGreaterThanOrEqual(1);
  });

  it('moves through the lifecycle and refuses every other step', async () => {
    const buyer = await customer();
    const approved = await placed(buyer, seeded.traffic30);
    await buyer.api.post(`/payment/checkout/${approved}/pay`, { form: { method: 'sandbox' }, token: buyer.token });
    expect((await buyer.sandbox(approved, 'approve')).body.data.status).toBe('success');
    expect((await buyer.sandbox(approved, 'decline')).body.code).toBe(2007);
    expect((await buyer.orders(approved)).body.data[0].status).toBe('success');
    expect(await packagesOf(buyer.userId)).toHaveLength(1);

    const declined = await placed(buyer, seeded.other90, { force: '1' });
    expect((await buyer.sandbox(declined, 'decline')).body.data.status).toBe('failed');
    expect((await buyer.sandbox(declined, 'approve')).body.code).toBe(2007);

    const pending = await placed(buyer, seeded.monthly, { force: '1' });
    expect((await buyer.sandbox(pending, 'pending')).body.data.status).toBe('doing');
    expect((await buyer.sandbox(pending, 'approve')).body.code).toBe(2007);
    expect((await buyer.api.put(`/mutenet/user/orders/cancel?no=${pending}`, { token: buyer.token })).body.code).toBe(
      2004,
    );
    expect(await packagesOf(buyer.userId)).toHaveLength(1);

    const refunded = await app.app.payments.refund(approved);
    expect(refunded.status).toBe('refunded');
    await expect(app.app.payments.refund(approved)).rejects.toMatchObject({ key: 'ORDER_NOT_PAID' });
    await expect(app.app.payments.chargeback(approved)).rejects.toMatchObject({ key: 'ORDER_NOT_PAID' });
    const [ended] = await app.app.db
      .selectFrom('user_packages')
      .selectAll()
      .where('user_id', '=', buyer.userId)
      .execute();
    expect(ended!.ended_at).not.toBeNull();
    expect(ended!.ends_at).toBeLessThanOrEqual(app.clock.now());
  });

  it('moves the queue forward when a refund ends a package ahead of it', async () => {
    const buyer = await customer();
    const first = await placed(buyer, seeded.traffic30);
    await buyer.sandbox(first, 'approve');
    const second = await placed(buyer, seeded.monthly, { force: '1' });
    await buyer.sandbox(second, 'approve');
    await app.app.payments.chargeback(first);
    const live = (await packagesOf(buyer.userId)).filter((pkg) => pkg.ended_at === null);
    expect(live).toHaveLength(1);
    expect(live[0]!.starts_at).toBeLessThanOrEqual(app.clock.now());
    expect(live[0]!.ends_at - live[0]!.starts_at).toBe(30 * DAY);
  });
});
