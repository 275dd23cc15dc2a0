import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { SUBSCRIPTION_PATH_PREFIX } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { bothWays, request, requestLogLines, routedUnder } from '../../test/early-answers.js';
import { randomIp } from '../../test/http-client.js';
import { parseExposition, sampleValue } from '../../test/metrics.js';
import { addNodes, type Customer, customerWithPackage } from '../../test/subscription.js';
import { changesHeard, DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { FEED_IP_LIMIT, FEED_TOKEN_LIMIT } from './feed.service.js';

const CLIENTS = {
  'share links': { 'user-agent': 'v2rayNG/1.9.30' },
  clash: { 'user-agent': 'ClashMetaForAndroid/2.11.5.Meta' },
  'sing-box': { 'user-agent': 'SFA/1.11.4 (327; sing-box 1.11.4; language en_US)' },
} as const;

// A client app's fetch of its link is answered before Fastify routes it when its answer goes as it is (gzipped from
// the feed's kept parts, or short): the test counts the requests Fastify routed under /sub, holds each early answer
// to the one the route gives the same request (`inject` goes through Fastify alone), and counts each fetch against
// the limits once, whichever of the two answers it.
describe.each(DATABASES)('subscription fetches answered before routing, on %s', (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let seq = 0;
  const counter = routedUnder(`${SUBSCRIPTION_PATH_PREFIX}/`);
  const newCustomer = (pkgId: number | null) =>
    customerWithPackage(app, `early-feed${++seq}.${database}@example.com`, pkgId);
  /** The path of the customer's subscription link. */
  async function pathOf(customer: Customer) {
    const { text } = await customer.api.get('/mutenet/user/subscribe/url', { token: customer.token });
    return new URL(text).pathname;
  }

  beforeAll(async () => {
    app = await startTestApp({ database, beforeListen: counter.hook });
    seeded = await seedCatalog(app);
    await addNodes(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each([
    ['over plain HTTP', {}],
    ['behind the trusted proxy over HTTPS (HSTS)', { 'x-forwarded-proto': 'https' }],
  ])('answers each client family its gzipped feed as the route does, %s', async (_, extra) => {
    const path = await pathOf(await newCustomer(seeded.traffic30));
    const cases: Array<[string, Record<string, string>]> = [
      ...Object.entries(CLIENTS).map(([name, client]): [string, Record<string, string>] => [name, client]),
      ['?flag=clash', { 'user-agent': 'curl/8.0' }],
      ['?flag=sing-box', CLIENTS.clash],
    ];
    for (const [name, client] of cases) {
      const url = name.startsWith('?') ? `${path}${name}` : path;
      const headers = { ...extra, ...client, 'accept-encoding': 'gzip, deflate, br', 'x-forwarded-for': randomIp() };
      const { routedByHttp, early, route } = await bothWays(app, counter, url, { ...headers, 'x-request-id': 'f-1' });
      expect(routedByHttp, name).toBe(0);
      expect(early.status, name).toBe(200);
      expect(early.headers['content-encoding'], name).toBe('gzip');
      expect(early.headers['subscription-userinfo'], name).toMatch(/^upload=0; download=0; total=\d+; expire=\d+$/);
      expect(early, name).toEqual(route);
      expect(gunzipSync(early.body).length, name).toBeGreaterThan(1024);
      expect(early.headers['x-request-id']).toBe('f-1');
      expect(early.headers['strict-transport-security'] !== undefined).toBe('x-forwarded-proto' in extra);
    }
  });

  it('answers the short feed of a customer with nothing running as it is, as the route does', async () => {
    const path = await pathOf(await newCustomer(null));
    const headers = { ...CLIENTS['share links'], 'x-forwarded-for': randomIp(), 'x-request-id': 'f-2' };
    const { routedByHttp, early, route } = await bothWays(app, counter, path, headers);
    expect(routedByHttp).toBe(0);
    expect(early.status).toBe(200);
    expect(early.headers['content-encoding']).toBeUndefined();
    expect(early).toEqual(route);
  });

  it('leaves to the route an unknown link, a browser, a client that takes no gzip, a bad flag and a HEAD', async () => {
    const path = await pathOf(await newCustomer(seeded.traffic30));
    const unknown = `${SUBSCRIPTION_PATH_PREFIX}/${randomBytes(32).toString('base64url')}`;
    const gzip = { ...CLIENTS.clash, 'accept-encoding': 'gzip' };
    const cases: Array<[string, Record<string, string>, number, string | undefined]> = [
      [unknown, gzip, 404, undefined],
      [`${SUBSCRIPTION_PATH_PREFIX}/short-token`, gzip, 404, undefined],
      [
        path,
        { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)', accept: 'text/html', 'accept-encoding': 'gzip' },
        200,
        'gzip',
      ],
      [path, { ...CLIENTS.clash, 'accept-encoding': 'br' }, 200, 'br'],
      [path, { ...CLIENTS.clash, 'accept-encoding': 'identity' }, 200, undefined],
      [path, CLIENTS.clash, 200, undefined],
      [`${path}?flag=${'x'.repeat(33)}`, gzip, 400, undefined],
      [`${path}?flag=clash&flag=sing-box`, gzip, 400, undefined],
    ];
    for (const [url, headers, status, encoding] of cases) {
      const { routedByHttp, early, route } = await bothWays(app, counter, url, {
        ...headers,
        'x-forwarded-for': randomIp(),
      });
      expect(routedByHttp, url).toBe(1);
      expect(early.status, url).toBe(status);
      expect(route.status, url).toBe(status);
      expect(early.headers['content-encoding'], url).toBe(encoding);
      expect(early.headers['content-type'], url).toBe(route.headers['content-type']);
    }
    // A fetch left to the route is looked up once: the route takes the early answer's lookup.
    const subscriptions = app.app.subscriptions;
    const subscriber = subscriptions.subscriber;
    let lookups = 0;
    subscriptions.subscriber = (token) => {
      lookups++;
      return subscriber.call(subscriptions, token);
    };
    try {
      for (const url of [unknown, path]) {
        const headers = { ...CLIENTS.clash, 'accept-encoding': 'identity', 'x-forwarded-for': randomIp() };
        const before = lookups;
        expect((await request(`${app.url}${url}`, headers)).status, url).toBe(url === path ? 200 : 404);
        expect(lookups - before, url).toBe(1);
      }
    } finally {
      subscriptions.subscriber = subscriber;
    }
    const before = counter.routed;
    expect((await request(`${app.url}${path}`, { ...gzip, 'x-forwarded-for': randomIp() }, 'HEAD')).status).toBe(200);
    expect(counter.routed - before).toBe(1);
  });

  it('answers a link fetched before without waiting on anything while its customer and the limits are in memory', async () => {
    const path = await pathOf(await newCustomer(seeded.traffic30));
    const fetchLink = async () => {
      const headers = { ...CLIENTS.clash, 'accept-encoding': 'gzip', 'x-forwarded-for': randomIp() };
      expect((await request(`${app.url}${path}`, headers)).status).toBe(200);
    };
    // The first fetch reads the customer from the database, and keeps it: once the notices of the customer's making
    // have come, as a read under way when one comes is not kept (seen with test files side by side).
    await changesHeard(app);
    await fetchLink();
    const { store, subscriptions, nodes } = app.app;
    const spies = {
      increment: vi.spyOn(store, 'increment'),
      subscriber: vi.spyOn(subscriptions, 'subscriber'),
      named: vi.spyOn(nodes, 'named'),
    };
    // Whether each call the early answer makes gave its value at once or a promise of it (lib/maybe-promise.ts).
    let promised: Record<string, boolean[]>;
    try {
      await fetchLink();
      promised = Object.fromEntries(
        Object.entries(spies).map(([name, spy]) => [
          name,
          spy.mock.results.map(({ value }) => value instanceof Promise),
        ]),
      );
    } finally {
      for (const spy of Object.values(spies)) spy.mockRestore();
    }
    // The address's limit and the link's, the customer, the nodes: all at once.
    expect(promised).toEqual({ increment: [false, false], subscriber: [false], named: [false] });
  });

  it('counts each fetch against the link and the address once, whichever answers it', async () => {
    const path = await pathOf(await newCustomer(seeded.traffic30));
    const statuses: number[] = [];
    // Every other fetch takes no gzip: the early answer counts it, then leaves it to the route.
    for (let i = 0; i < FEED_TOKEN_LIMIT.max + 1; i++) {
      const encoding = i % 2 ? 'identity' : 'gzip';
      const headers = { ...CLIENTS.clash, 'accept-encoding': encoding, 'x-forwarded-for': randomIp() };
      statuses.push((await request(`${app.url}${path}`, headers)).status);
    }
    expect(statuses.slice(0, FEED_TOKEN_LIMIT.max).every((status) => status === 200)).toBe(true);
    const refused = await request(`${app.url}${path}`, { ...CLIENTS.clash, 'x-forwarded-for': randomIp() });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(FEED_TOKEN_LIMIT.timeWindow / 1000));
    expect(JSON.parse(refused.body.toString())).toMatchObject({ code: 429 });

    // Unknown links from one address: each goes by the early answer to the route, and counts once.
    const ip = randomIp();
    const unknown = () => `${app.url}${SUBSCRIPTION_PATH_PREFIX}/${randomBytes(32).toString('base64url')}`;
    for (let i = 0; i < FEED_IP_LIMIT.max; i++) {
      expect((await request(unknown(), { 'x-forwarded-for': ip })).status, `fetch ${i + 1}`).toBe(404);
    }
    expect((await request(unknown(), { 'x-forwarded-for': ip })).status).toBe(429);
    expect((await request(`${app.url}${path}`, { 'x-forwarded-for': ip })).status).toBe(429);
  });

  it('counts its answers in the metrics under the route and logs them as Fastify does, without the token', async () => {
    const path = await pathOf(await newCustomer(seeded.traffic30));
    const labels = { method: 'GET', route: `${SUBSCRIPTION_PATH_PREFIX}/:token`, status: '200' };
    const countOf = async () =>
      sampleValue(parseExposition(await app.app.metrics.render()), 'mutenet_http_requests_total', labels);
    const before = await countOf();
    const routedBefore = counter.routed;
    const logsBefore = app.logs.length;
    const headers = { ...CLIENTS.clash, 'accept-encoding': 'gzip', 'x-request-id': 'feed-logged' };
    expect((await request(`${app.url}${path}`, headers)).status).toBe(200);
    expect(counter.routed).toBe(routedBefore);
    expect(await countOf()).toBe(before + 1);
    const lines = requestLogLines(app, logsBefore, 'feed-logged');
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect((lines[0] as { req: { url: string } }).req.url).toBe(`${SUBSCRIPTION_PATH_PREFIX}/:token`);
    expect(JSON.stringify(lines)).not.toContain(path.split('/').at(-1));
  });
});
