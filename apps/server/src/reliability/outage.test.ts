import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIB } from '../lib/units.js';
import { USER_LIST_MAX_AGE_MS } from '../modules/node-api/user-list.js';
import { captcha, PASSWORD, signUp } from '../test/accounts.js';
import { seedCatalog } from '../test/catalog.js';
import { type CallResult, httpClient } from '../test/http-client.js';
import { until } from '../test/server-process.js';
import { addNodes, agent, type Customer, customerWithPackage } from '../test/subscription.js';
import { type CutMode, startTcpProxy, type TcpProxy } from '../test/tcp-proxy.js';
import { POSTGRES_URL, REDIS_URL, startTestApp, type TestApp } from '../test/test-app.js';

/** However the service fails, a request that needs it is answered within this: no hang until a client gives up. */
const ANSWER_WITHIN_MS = 5000;
/** Once the service is back, the app serves again within this, by itself. */
const RESUME_WITHIN_MS = 5000;

type Timed = CallResult & { ms: number };

async function timed(call: Promise<CallResult>): Promise<Timed> {
  const start = performance.now();
  const result = await call;
  return { ...result, ms: performance.now() - start };
}

/** The envelope of a backing service that is away, with a hint when to try again, in good time. */
function expectUnavailable(answer: Timed) {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 503,
    body: { code: 503, msg: MESSAGES.SERVICE_UNAVAILABLE.en, data: null },
  });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
}

function proxyFor(serviceUrl: string) {
  const { hostname, port } = new URL(serviceUrl);
  return startTcpProxy({ host: hostname, port: Number(port) });
}

/** Every status `request` got from 8 loops that were running when the proxy was cut. */
async function statusesAcrossCut(proxy: TcpProxy, request: () => Promise<CallResult>): Promise<Set<number>> {
  const statuses: number[] = [];
  /** How many answers had come when the proxy was cut: the loops go on for 40 more. */
  let answeredAtCut = Number.POSITIVE_INFINITY;
  const load = Array.from({ length: 8 }, async () => {
    while (statuses.length < answeredAtCut + 40) statuses.push((await request()).status);
  });
  await until(() => (statuses.length >= 40 ? true : undefined), 'the load to run');
  await proxy.cut('refuse');
  answeredAtCut = statuses.length;
  await Promise.all(load);
  return new Set(statuses);
}

/** Gives the service back and waits, without any restart, until `serves` says the app serves again. */
async function restoreAndResume(proxy: TcpProxy, serves: () => Promise<boolean>) {
  await proxy.restore();
  const restored = performance.now();
  await until(async () => ((await serves()) ? true : undefined), 'service to resume', RESUME_WITHIN_MS);
  expect(performance.now() - restored).toBeLessThan(RESUME_WITHIN_MS);
}

const postgresUrl = POSTGRES_URL;
if (postgresUrl) {
  describe('PostgreSQL goes away and comes back', () => {
    let proxy: TcpProxy;
    let app: TestApp;
    let token: string;
    const api = () => httpClient(app.url, { language: 'en' });
    const orders = () => timed(api().get('/mutenet/user/orders', { token }));
    const ordersServed = async () => (await orders()).body.code === 0;
    const link = () => timed(api().get('/mutenet/user/subscribe/url', { token }));

    beforeAll(async () => {
      proxy = await proxyFor(postgresUrl);
      app = await startTestApp({
        database: 'postgres',
        // A silent connection is given up after a second, so that a request on one is answered in good time.
        env: { DATABASE_URL: proxy.urlFor(postgresUrl), DATABASE_QUERY_TIMEOUT_SECONDS: '1' },
      });
      token = await signUp(app, api(), 'outage.pg@example.com');
    });
    afterAll(async () => {
      await app?.close();
      await proxy?.close();
    });

    it('answers every request cut off in flight with 200 or 503, and lives on', async () => {
      expect(await statusesAcrossCut(proxy, orders)).toEqual(new Set([200, 503]));
      await restoreAndResume(proxy, ordersServed);
      expect(app.logs.join('')).not.toContain('unhandled error');
    });

    it.each<CutMode>(['refuse', 'hang', 'silence'])(
      'answers 503 in good time while the proxy is cut (%s), and resumes by itself',
      async (how) => {
        expect(await ordersServed()).toBe(true);
        const heldBefore = proxy.held();
        await proxy.cut(how);
        // A burst larger than the pool, and the health check, which says the database is away.
        const health = timed(api().get('/healthz'));
        for (const answer of await Promise.all(Array.from({ length: 15 }, link))) expectUnavailable(answer);
        expectUnavailable(await health);
        // Those answers came while the pool's new connections sat in the black hole, not from some other failure.
        if (how === 'hang') expect(proxy.held()).toBeGreaterThan(heldBefore);

        await restoreAndResume(proxy, async () => (await api().get('/healthz')).status === 200);
        expect(await ordersServed()).toBe(true);
        expect(app.logs.join('')).not.toContain('unhandled error');
      },
    );
  });
}

const redisUrl = REDIS_URL;
if (redisUrl) {
  describe('Redis goes away and comes back', () => {
    let proxy: TcpProxy;
    let app: TestApp;
    let customer: Customer;
    /** A customer on a traffic package, whose allowance each case's push uses up. */
    let heavy: Customer;
    let traffic: number;
    let node: Awaited<ReturnType<typeof addNodes>>[number];
    let feedPath: string;
    const email = 'outage.redis@example.com';
    const api = () => httpClient(app.url, { language: 'en' });
    const newCaptcha = () => timed(api().get('/mutenet/verify/code/img'));
    /** The ids in the user list a node pulls, answered in good time. */
    const listed = async () => {
      const pulled = await timed(agent(app, node).users());
      expect(pulled.status).toBe(200);
      expect(pulled.ms).toBeLessThan(ANSWER_WITHIN_MS);
      return (pulled.body.users as Array<{ id: number }>).map((user) => user.id);
    };
    const captchaServed = async () => (await newCaptcha()).status === 200;
    /** A customer's bytes over all their packages: uploaded, and counted against allowances. */
    const usage = async (customerId: number) => {
      const sums = await app.app.db
        .selectFrom('user_packages')
        .select((eb) => [eb.fn.sum<number>('upload_used').as('up'), eb.fn.sum<number>('traffic_used').as('used')])
        .where('user_id', '=', customerId)
        .executeTakeFirstOrThrow();
      return { uploaded: Number(sums.up), used: Number(sums.used) };
    };

    beforeAll(async () => {
      proxy = await proxyFor(redisUrl);
      app = await startTestApp({ redis: true, env: { REDIS_URL: proxy.urlFor(redisUrl) } });
      const seeded = await seedCatalog(app);
      const { monthly } = seeded;
      traffic = seeded.traffic30;
      customer = await customerWithPackage(app, email, monthly);
      heavy = await customerWithPackage(app, `heavy.${email}`, traffic);
      node = (await addNodes(app))[0]!;
      feedPath = new URL((await customer.api.get('/mutenet/user/subscribe/url', { token: customer.token })).text)
        .pathname;
    });
    afterAll(async () => {
      await app?.close();
      await proxy?.close();
    });

    it('answers every request cut off in flight with 200 or 503, and lives on', async () => {
      expect(await statusesAcrossCut(proxy, newCaptcha)).toEqual(new Set([200, 503]));
      await restoreAndResume(proxy, captchaServed);
      expect(app.logs.join('')).not.toContain('unhandled error');
    });

    it.each<CutMode>(['refuse', 'hang', 'silence'])(
      'answers 503 in good time while the proxy is cut (%s), and resumes by itself',
      async (how) => {
        const client = api();
        const issued = await captcha(client);
        // The allowance the push below uses up, bought while the store is there.
        await heavy.buy(traffic);
        // A customer with one traffic package, and the list nodes pull, built while the store is there.
        const lone = await customerWithPackage(app, `lone.${how}.redis@example.com`, traffic);
        expect(await listed()).toContain(lone.id);
        const heldBefore = proxy.held();
        await proxy.cut(how);
        // The client reconnects at once: into the black hole, when the proxy is one.
        if (how === 'hang') await until(() => (proxy.held() > heldBefore ? true : undefined), 'a reconnection');

        // A captcha is kept in the store; a login counts its attempts there (its rate limit too) and takes the captcha.
        expectUnavailable(await newCaptcha());
        expectUnavailable(
          await timed(client.post('/mutenet/login', { form: { email, password: PASSWORD, ...issued } })),
        );
        // What needs only the database still works: the health check, the customer's feed (its per-link limit goes
        // uncounted, as the per-IP ones do), and a node's traffic report, which the node would otherwise drop.
        expect((await client.get('/healthz')).status).toBe(200);
        const feed = await timed(client.get(feedPath));
        expect(feed.status).toBe(200);
        expect(feed.ms).toBeLessThan(ANSWER_WITHIN_MS);
        const { uploaded: before } = await usage(customer.id);
        const pushed = await timed(agent(app, node).push({ [customer.id]: [1000, 0] }));
        expect({ status: pushed.status, body: pushed.body }).toEqual({ status: 200, body: { data: true } });
        expect(pushed.ms).toBeLessThan(ANSWER_WITHIN_MS);
        expect((await usage(customer.id)).uploaded).toBe(before + 1000 * node.rate);
        // A report that uses up an allowance is answered 200 too (a 503 after the commit would make the agent send
        // it again, counting it twice), and counts once.
        const { used: usedBefore } = await usage(heavy.id);
        const exhausting = await timed(agent(app, node).push({ [heavy.id]: [200 * GIB, 0] }));
        expect({ status: exhausting.status, body: exhausting.body }).toEqual({ status: 200, body: { data: true } });
        expect((await usage(heavy.id)).used).toBe(usedBefore + 200 * GIB * node.rate);
        // Nodes go on pulling their list: the kept one, which a used-up allowance cannot mark as changed while the
        // store is away, then, once its minute is up, one built again from the database, without that customer.
        await agent(app, node).push({ [lone.id]: [200 * GIB, 0] });
        expect(await listed()).toContain(lone.id);
        app.clock.advance(USER_LIST_MAX_AGE_MS);
        const rebuilt = await listed();
        expect(rebuilt).toContain(customer.id);
        expect(rebuilt).not.toContain(lone.id);

        await restoreAndResume(proxy, captchaServed);
        const login = await client.post('/mutenet/login', {
          form: { email, password: PASSWORD, ...(await captcha(client)) },
        });
        expect(login.body).toMatchObject({ code: 0 });
        expect(app.logs.join('')).not.toContain('unhandled error');
      },
    );
  });
}
