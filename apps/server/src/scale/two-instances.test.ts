import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GIB } from '../lib/units.js';
import { FEED_IP_LIMIT, FEED_TOKEN_LIMIT } from '../modules/feed/feed.routes.js';
import { SANDBOX_SIGNATURE_HEADER, signSandbox } from '../modules/payments/gateways/sandbox.gateway.js';
import { captcha, latestCode, PASSWORD } from '../test/accounts.js';
import { type SeededCatalog, seedCatalog } from '../test/catalog.js';
import { type CallResult, httpClient } from '../test/http-client.js';
import { majorAmount } from '../test/payments.js';
import { addNodes, agent } from '../test/subscription.js';
import { POSTGRES_URL, REDIS_URL, startTestApp, type TestApp } from '../test/test-app.js';

const SECRET = 'sandbox-secret-for-tests';

/**
 * Two instances of one installation, as behind a load balancer: one PostgreSQL schema, one Redis key prefix, one
 * clock. Nothing an instance keeps in its own memory may make the other answer differently.
 */
describe.runIf(POSTGRES_URL && REDIS_URL)('two instances on one PostgreSQL and one Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let seeded: SeededCatalog;
  let nodes: Awaited<ReturnType<typeof addNodes>>;

  beforeAll(async () => {
    a = await startTestApp({ database: 'postgres', redis: true, env: { PAYMENT_SANDBOX_SECRET: SECRET } });
    b = await startTestApp({ redis: true, env: { PAYMENT_SANDBOX_SECRET: SECRET }, joining: a });
    seeded = await seedCatalog(a);
    nodes = await addNodes(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** The sandbox gateway's signed webhook, as a real gateway calls it, on the given instance. */
  function notify(instance: TestApp, payload: Record<string, unknown>): Promise<CallResult> {
    const raw = JSON.stringify(payload);
    return httpClient(instance.url).post('/payment/notify/sandbox', {
      raw: { body: raw, type: 'application/json' },
      headers: { [SANDBOX_SIGNATURE_HEADER]: signSandbox(SECRET, raw) },
    });
  }

  const orderRow = (no: string) =>
    a.app.db.selectFrom('orders').selectAll().where('no', '=', no).executeTakeFirstOrThrow();

  /** Accounts made straight in the shared database, for the tests that need many. */
  async function insertUsers(count: number, tag: string): Promise<number[]> {
    const rows = await a.app.db
      .insertInto('users')
      .values(
        Array.from({ length: count }, (_, i) => ({
          email: `${tag}${i}@example.com`,
          name: `${tag} ${i}`,
          password_hash: 'not-a-hash',
          invite_code: null,
          uuid: randomUUID(),
          banned: 0,
          created_at: a.clock.now(),
        })),
      )
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  it('serves one customer with each request on the other instance', async () => {
    const email = 'journey@example.com';
    const onA = httpClient(a.url, { language: 'en' });
    const onB = httpClient(b.url, { ip: onA.ip, language: 'en' });
    const node = nodes.find((candidate) => candidate.protocol === 'vless')!;

    // Sign-up and sign-in: a captcha made by one is taken by the other, and so is the mailed code.
    const codeForm = { ...(await captcha(onA)), email };
    expect((await onB.post('/mutenet/verify/code/email?action=register', { form: codeForm })).body.code).toBe(0);
    const emailCode = await latestCode(a, email);
    const registered = await onA.post('/mutenet/register', {
      form: { name: 'Journey', email, password: PASSWORD, emailCode },
    });
    expect(registered.body.code).toBe(0);
    const loginForm = { email, password: PASSWORD, ...(await captcha(onB)) };
    const loggedIn = await onA.post('/mutenet/login', { form: loginForm });
    expect(loggedIn.body).toMatchObject({ code: 0, data: { user: email } });
    const token = loggedIn.headers.get('authorization')!;
    expect((await onB.post('/mutenet/login', { token })).body).toMatchObject({ code: 0, data: { user: email } });
    const user = await a.app.db
      .selectFrom('users')
      .select(['id', 'uuid'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();

    // The shop and an order.
    const plans = await onA.get('/mutenet/packages', { token });
    expect(JSON.stringify(plans.body.data)).toContain('Traffic 100');
    const currencies = await onB.get('/mutenet/payment/currencies', { token });
    expect(currencies.body.data.currencies.map((currency: { code: string }) => currency.code)).toContain('USD');
    const created = await onB.post('/mutenet/user/order/create', {
      form: { pkgId: String(seeded.traffic30), currency: 'USD' },
      token,
    });
    expect(created.body.code).toBe(0);
    const no: string = created.body.data.orderNo;
    const waiting = await onA.get(`/mutenet/user/orders?no=${no}`, { token });
    expect(waiting.body.data).toMatchObject([{ no, status: 'waiting', totalPrice: 4.99 }]);

    // Before the payment both instances serve the same user list, so one's ETag is the other's 304.
    const before = await agent(a, node).users();
    expect(before.body.users.map((listed: { id: number }) => listed.id)).not.toContain(user.id);
    const staleTag = before.headers.get('etag')!;
    expect((await agent(b, node).users(staleTag)).status).toBe(304);

    // The gateway's notification reaches one instance.
    const order = await orderRow(no);
    const paid = await notify(a, {
      eventId: `evt-${no}`,
      orderNo: no,
      outcome: 'success',
      amount: majorAmount(order),
      currency: 'USD',
    });
    expect(paid.body).toMatchObject({ code: 0, data: { status: 'success', applied: true } });
    const stat = await onB.get('/mutenet/user/package/stat', { token });
    expect(stat.body.data).toMatchObject([{ pdName: 'Traffic 100', trafficTotal: 100 * GIB, trafficUsed: 0 }]);
    expect(
      await a.app.db.selectFrom('user_packages').select('id').where('order_id', '=', order.id).execute(),
    ).toHaveLength(1);

    // The other instance's cached user list was dropped: the old ETag gets the new list, whose ETag both honour.
    const after = await agent(b, node).users(staleTag);
    expect(after.status).toBe(200);
    expect(after.body.users).toContainEqual({ id: user.id, uuid: user.uuid, speed_limit: 0, device_limit: 0 });
    const freshTag = after.headers.get('etag')!;
    expect(freshTag).not.toBe(staleTag);
    expect((await agent(a, node).users(freshTag)).status).toBe(304);
    expect((await agent(b, node).users(freshTag)).status).toBe(304);

    // The link one instance gives is served by the other.
    const link = await onA.get('/mutenet/user/subscribe/url', { token });
    expect(link.status).toBe(200);
    const fetchFeed = () => onB.get(new URL(link.text).pathname, { headers: { 'user-agent': 'v2rayNG/1.9.30' } });
    const feed = await fetchFeed();
    expect(feed.status).toBe(200);
    const shareLinks = Buffer.from(feed.text, 'base64').toString().split('\n');
    expect(shareLinks).toHaveLength(nodes.length);
    expect(shareLinks.find((line) => line.startsWith('vless://'))).toContain(user.uuid);

    // Traffic pushed to both adds up, each instance reading what the other wrote; online users reported to one are
    // counted by the other.
    expect((await onA.get('/mutenet/user/package/stat', { token })).body.data[0].trafficUsed).toBe(0);
    expect((await agent(a, node).push({ [user.id]: [1000, 2000] })).body).toEqual({ data: true });
    expect((await agent(b, node).push({ [user.id]: [10, 20] })).body).toEqual({ data: true });
    const used = await onA.get('/mutenet/user/package/stat', { token });
    expect(used.body.data[0].trafficUsed).toBe((1000 + 2000 + 10 + 20) * node.rate);
    const usage = (upload: number, download: number) =>
      new RegExp(`^upload=${upload * node.rate}; download=${download * node.rate}; `);
    expect((await fetchFeed()).headers.get('subscription-userinfo')).toMatch(usage(1000 + 10, 2000 + 20));
    expect((await agent(a, node).push({ [user.id]: [2, 4] })).body).toEqual({ data: true });
    expect((await fetchFeed()).headers.get('subscription-userinfo')).toMatch(usage(1012, 2024));
    expect((await agent(a, node).alive({ [user.id]: ['198.51.100.7', '198.51.100.8'] })).body).toEqual({ data: true });
    expect((await agent(b, node).aliveList()).body).toEqual({ alive: { [user.id]: 2 } });
    const status = await onB.get('/mutenet/user/nodes', { token });
    expect(status.body.data.find((listed: { name: string }) => listed.name === node.name)).toMatchObject({
      status: 'online',
    });

    // A second order, placed on one and cancelled on the other, is closed for both.
    const second = await onA.post('/mutenet/user/order/create', {
      form: { pkgId: String(seeded.monthly), currency: 'USD', force: '1' },
      token,
    });
    expect(second.body.code).toBe(0);
    const secondNo: string = second.body.data.orderNo;
    const cancel = `/mutenet/user/orders/cancel?no=${secondNo}`;
    // Each instance has read the customer's orders (and keeps them) before the other changes one.
    expect((await onA.get('/mutenet/user/orders', { token })).body.data[0]).toMatchObject({
      no: secondNo,
      status: 'waiting',
    });
    expect((await onB.get(`/mutenet/user/orders?no=${secondNo}`, { token })).body.data).toMatchObject([
      { status: 'waiting' },
    ]);
    expect((await onB.put(cancel, { token })).body.code).toBe(0);
    expect((await onA.put(cancel, { token })).body.code).toBe(2004);
    const closed = await onB.get(`/mutenet/user/orders?no=${secondNo}`, { token });
    expect(closed.body.data).toMatchObject([{ status: 'close' }]);
    expect((await onA.get('/mutenet/user/orders', { token })).body.data[0]).toMatchObject({
      no: secondNo,
      status: 'close',
    });

    // Signed out on one, the session ends on the other too.
    expect((await onB.get('/mutenet/user/nodes', { token })).status).toBe(200);
    expect((await onA.post('/mutenet/logout', { token })).body.code).toBe(0);
    expect((await onB.get('/mutenet/user/nodes', { token })).status).toBe(401);
  });

  it('counts the per-IP and per-link feed limits over both instances', async () => {
    const one = httpClient(a.url);
    const two = httpClient(b.url, { ip: one.ip });
    const unknownLink = () => `/sub/${randomBytes(32).toString('base64url')}`;
    for (let i = 0; i < FEED_IP_LIMIT.max; i++) {
      expect((await (i % 2 ? two : one).get(unknownLink())).status, `call ${i + 1}`).toBe(404);
    }
    expect((await one.get(unknownLink())).status).toBe(429);
    expect((await two.get(unknownLink())).status).toBe(429);
    expect((await httpClient(b.url).get(unknownLink())).status).toBe(404);

    // One link fetched from many addresses, half of them on each instance.
    const link = unknownLink();
    for (let i = 0; i < FEED_TOKEN_LIMIT.max; i++) {
      expect((await httpClient((i % 2 ? b : a).url).get(link)).status, `call ${i + 1}`).toBe(404);
    }
    expect((await httpClient(a.url).get(link)).status).toBe(429);
    expect((await httpClient(b.url).get(link)).status).toBe(429);
  });

  it("times out each due order once while both instances' timeout work runs at the same time", async () => {
    const users = await insertUsers(10, 'due');
    const packages = [seeded.traffic30, seeded.other90, seeded.monthly];
    const numbers = await Promise.all(
      users.flatMap((userId, u) =>
        packages.map((pkgId, p) =>
          ((u + p) % 2 ? b : a).app.orders.create(userId, { pkgId, currency: 'USD', force: true }),
        ),
      ),
    );
    // The jobs of both instances run on their own too: what they change is in their log lines.
    const jobChanges = () =>
      [...a.logs, ...b.logs]
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.job === 'order-timeout' && entry.msg === 'job ran')
        .reduce((sum, entry) => sum + entry.changed, 0);
    expect(jobChanges()).toBe(0);

    a.clock.advance(a.config.orderTimeoutMs + 1000);
    const direct = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? b : a).app.orders.timeOutDue()));
    const changed = direct.reduce((sum, count) => sum + count, 0);
    // A job run that overlapped has changed the rest, and logs it as soon as its statement returns.
    await vi.waitFor(() => expect(changed + jobChanges()).toBeGreaterThanOrEqual(numbers.length), { timeout: 2000 });
    expect(changed + jobChanges()).toBe(numbers.length);
    const statuses = await a.app.db.selectFrom('orders').select('status').where('no', 'in', numbers).execute();
    expect(statuses.map((row) => row.status)).toEqual(numbers.map(() => 'timeout'));
  });

  it('activates each paid order once when the same notifications reach both instances at once', async () => {
    const users = await insertUsers(8, 'payer');
    // Each customer pays two orders at the same moment: the second package must queue behind the first.
    const orders = await Promise.all(
      users.flatMap((userId) =>
        [seeded.traffic30, seeded.monthly].map(async (pkgId) =>
          orderRow(await a.app.orders.create(userId, { pkgId, currency: 'USD', force: true })),
        ),
      ),
    );
    const copies = 3;
    const answers = await Promise.all(
      orders.flatMap((order) =>
        Array.from({ length: copies * 2 }, (_, i) =>
          notify(i % 2 ? b : a, {
            eventId: `evt-${order.no}`,
            orderNo: order.no,
            outcome: 'success',
            amount: majorAmount(order),
            currency: 'USD',
          }).then((answer) => ({ no: order.no, answer })),
        ),
      ),
    );
    for (const { no, answer } of answers) {
      expect(answer.status, no).toBe(200);
      expect(answer.body.data.status, no).toBe('success');
    }
    for (const order of orders) {
      const applied = answers.filter(({ no, answer }) => no === order.no && answer.body.data.applied);
      expect(applied, order.no).toHaveLength(1);
    }

    const ids = orders.map((order) => order.id);
    const packages = await a.app.db
      .selectFrom('user_packages')
      .select(['order_id', 'user_id', 'starts_at', 'ends_at'])
      .where('order_id', 'in', ids)
      .orderBy('user_id')
      .orderBy('starts_at')
      .execute();
    expect(packages.map((pkg) => pkg.order_id).sort()).toEqual([...ids].sort());
    const events = await a.app.db
      .selectFrom('payment_events')
      .select('order_id')
      .where('order_id', 'in', ids)
      .execute();
    expect(events).toHaveLength(orders.length);
    for (const userId of users) {
      const [first, queued] = packages.filter((pkg) => pkg.user_id === userId);
      expect(first!.starts_at).toBeLessThanOrEqual(a.clock.now());
      expect(queued!.starts_at, `the second package of user ${userId} waits for the first`).toBe(first!.ends_at);
    }

    // Both instances drop their cached user list: every payer is served by either.
    for (const instance of [a, b]) {
      const { body } = await agent(instance, nodes[0]!).users();
      const listed = body.users.map((user: { id: number }) => user.id);
      for (const userId of users) expect(listed).toContain(userId);
    }
  });
});
