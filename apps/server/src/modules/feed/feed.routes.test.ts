import { randomBytes } from 'node:crypto';
import { MESSAGES, REQUEST_LANGUAGES } from '@mutenet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { login } from '../../test/accounts.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { decoded, getRaw, httpClient } from '../../test/http-client.js';
import { addNodes, agent, customerWithPackage } from '../../test/subscription.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { resolveProxy } from '../nodes/nodes.service.js';
import { FEED_IP_LIMIT, FEED_TOKEN_LIMIT } from './feed.routes.js';
import type { FeedInput } from './feed-format.js';
import { renderClash } from './formats/clash.js';
import { renderShareLinks } from './formats/share-links.js';
import { renderSingBox } from './formats/sing-box.js';

const USERINFO = /^upload=\d+; download=\d+; total=\d+; expire=\d+$/;

describe.each(DATABASES)('subscription link and feed on %s', (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let nodes: Awaited<ReturnType<typeof addNodes>>;
  let seq = 0;
  const newCustomer = (pkgId: number | null) => customerWithPackage(app, `feed${++seq}.${database}@example.com`, pkgId);

  /** The customer's link and a GET of its path with the given headers. */
  async function linkOf(customer: Awaited<ReturnType<typeof newCustomer>>) {
    const { status, text, headers } = await customer.api.get('/mutenet/user/subscribe/url', { token: customer.token });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/plain/);
    return text;
  }
  const fetchFeed = (link: string, headers: Record<string, string> = {}) =>
    httpClient(app.url).get(new URL(link).pathname + new URL(link).search, { headers });

  beforeAll(async () => {
    app = await startTestApp({ database, env: { PUBLIC_URL: 'https://panel.example.com', SITE_NAME: 'Mutenet Café' } });
    seeded = await seedCatalog(app);
    nodes = await addNodes(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('gives the same link each time, under PUBLIC_URL, and only to its owner', async () => {
    const customer = await newCustomer(seeded.traffic30);
    const link = await linkOf(customer);
    expect(link).toMatch(/^https:\/\/panel\.example\.com\/sub\/[\w-]{43}$/);
    expect(await linkOf(customer)).toBe(link);
    expect((await httpClient(app.url).get('/mutenet/user/subscribe/url')).status).toBe(401);
    const stored = await app.app.db
      .selectFrom('users')
      .select('sub_token_hash')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(stored.sub_token_hash).not.toContain(link.split('/').at(-1));
  });

  it('serves each client family its format with the usage headers', async () => {
    const customer = await newCustomer(seeded.traffic30);
    await agent(app, nodes[2]!).push({ [customer.id]: [1000, 2000] });
    const link = await linkOf(customer);
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ 'user-agent': 'v2rayNG/1.9.30' }, '', /^text\/plain/],
      [{ 'user-agent': 'ClashMetaForAndroid/2.11.5.Meta' }, '', /^text\/yaml/],
      [{ 'user-agent': 'SFA/1.11.4 (327; sing-box 1.11.4; language en_US)' }, '', /^application\/json/],
      [{ 'user-agent': 'curl/8.0' }, '?flag=clash', /^text\/yaml/],
      [{ 'user-agent': 'ClashMetaForAndroid/2.11.5.Meta' }, '?flag=sing-box', /^application\/json/],
    ];
    for (const [headers, query, type] of cases) {
      const response = await fetchFeed(link + query, headers);
      expect(response.status, JSON.stringify(headers) + query).toBe(200);
      expect(response.headers.get('content-type')).toMatch(type);
      const userinfo = response.headers.get('subscription-userinfo')!;
      expect(userinfo).toMatch(USERINFO);
      expect(userinfo).toContain('upload=1000; download=2000; total=107374182400; expire=');
      expect(Number(userinfo.match(/expire=(\d+)/)![1])).toBeGreaterThan(app.clock.now() / 1000);
      expect(response.headers.get('profile-update-interval')).toMatch(/^\d+$/);
      expect(response.headers.get('profile-title')).toBe(`base64:${Buffer.from('Mutenet Café').toString('base64')}`);
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="[^"]+"; filename\*=UTF-8''.+$/,
      );
    }
    const links = Buffer.from((await fetchFeed(link, { 'user-agent': 'v2rayNG/1.9.30' })).text, 'base64')
      .toString()
      .split('\n');
    expect(links).toHaveLength(nodes.length);
    expect(links.map((line) => line.split('://')[0]).sort()).toEqual([
      'hysteria2',
      'ss',
      'trojan',
      'tuic',
      'vless',
      'vmess',
    ]);
    const uuid = (
      await app.app.db.selectFrom('users').select('uuid').where('id', '=', customer.id).executeTakeFirstOrThrow()
    ).uuid;
    expect(links.find((line) => line.startsWith('vless://'))).toContain(uuid);
    const clash = parseYaml((await fetchFeed(link, { 'user-agent': 'mihomo/1.19.0' })).text);
    expect(clash.proxies).toHaveLength(nodes.length);
    const singBox = JSON.parse((await fetchFeed(`${link}?flag=sing-box`)).text);
    expect(singBox.outbounds.filter((outbound: { server?: string }) => outbound.server)).toHaveLength(nodes.length);
  });

  it('answers every format, language and sing-box version with the renderers’ own bytes, customer after customer', async () => {
    const cases: Array<[string, Record<string, string>, (input: FeedInput) => string]> = [
      ['', { 'user-agent': 'v2rayNG/1.9.30' }, (input) => renderShareLinks(input).body],
      ['', { 'user-agent': 'mihomo/1.19.0' }, (input) => renderClash(input).body],
      [
        '',
        { 'user-agent': 'SFA/1.9.4 (sing-box 1.9.4)' },
        (input) => renderSingBox(input, { major: 1, minor: 9 }).body,
      ],
      [
        '?flag=sing-box',
        { 'user-agent': 'sing-box 1.12.0' },
        (input) => renderSingBox(input, { major: 1, minor: 12 }).body,
      ],
    ];
    for (const customer of [await newCustomer(seeded.traffic30), await newCustomer(seeded.traffic30)]) {
      const link = await linkOf(customer);
      const { uuid } = await app.app.db
        .selectFrom('users')
        .select('uuid')
        .where('id', '=', customer.id)
        .executeTakeFirstOrThrow();
      for (const language of REQUEST_LANGUAGES) {
        const nodes = await app.app.nodes.named(language);
        const input: FeedInput = {
          proxies: nodes.map((node) => resolveProxy(node, uuid)),
          usage: { upload: 0, download: 0, total: 0, expire: 0 },
          title: 'Mutenet Café',
        };
        for (const [query, headers, render] of cases) {
          const response = await fetchFeed(link + query, { ...headers, 'accept-language': language });
          expect(response.text, `${language} ${JSON.stringify(headers)}${query}`).toBe(render(input));
        }
      }
    }
  });

  it('gives a customer with no usable package a valid feed with no proxies and the usage headers', async () => {
    const idle = await newCustomer(null);
    const link = await linkOf(idle);
    const plain = await fetchFeed(link, { 'user-agent': 'v2rayNG/1.9.30' });
    expect(plain.status).toBe(200);
    expect(plain.text).toBe('');
    expect(plain.headers.get('subscription-userinfo')).toBe('upload=0; download=0; total=0; expire=0');
    const clash = parseYaml((await fetchFeed(link, { 'user-agent': 'mihomo/1.19.0' })).text);
    expect(clash.proxies ?? []).toEqual([]);
    expect(clash['proxy-groups'].every((group: { proxies: string[] }) => group.proxies.length > 0)).toBe(true);
  });

  it('shows a browser a page explaining the link, in the request language, with no raw data', async () => {
    const customer = await newCustomer(seeded.traffic30);
    const link = await linkOf(customer);
    const page = await fetchFeed(link, {
      'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0',
      accept: 'text/html,application/xhtml+xml',
      'accept-language': 'pt-BR',
    });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('lang="pt-BR"');
    expect(page.text).not.toContain('vless://');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('answers a burst of first fetches of different links, each with its own customer, and 404 for an unknown one', async () => {
    // Fetched at once, each for the first time.
    const customers = await Promise.all(Array.from({ length: 8 }, () => newCustomer(seeded.traffic30)));
    await agent(app, nodes[2]!).push(
      Object.fromEntries(customers.map((customer, index) => [customer.id, [1000 * (index + 1), 7]])),
    );
    const links = await Promise.all(customers.map(linkOf));
    const uuids = await app.app.db
      .selectFrom('users')
      .select(['id', 'uuid'])
      .where(
        'id',
        'in',
        customers.map((customer) => customer.id),
      )
      .execute();
    const answers = await Promise.all([
      ...links.map((link) => fetchFeed(link, { 'user-agent': 'v2rayNG/1.9.30' })),
      httpClient(app.url).get(`/sub/${'x'.repeat(43)}`),
    ]);
    customers.forEach((customer, index) => {
      const answer = answers[index]!;
      expect(answer.status).toBe(200);
      expect(answer.headers.get('subscription-userinfo')).toContain(`upload=${1000 * (index + 1)}; download=7;`);
      const uuid = uuids.find((row) => row.id === customer.id)!.uuid;
      expect(Buffer.from(answer.text, 'base64').toString()).toContain(uuid);
    });
    expect(answers.at(-1)!.status).toBe(404);
  });

  it('answers 404 for an unknown token, and for the old one right after a reset, which also changes the UUID', async () => {
    expect((await httpClient(app.url).get('/sub/unknown-token')).status).toBe(404);
    expect((await httpClient(app.url).get(`/sub/${'a'.repeat(43)}`)).text).toBe('Not found');
    const customer = await newCustomer(seeded.traffic30);
    const before = await linkOf(customer);
    const uuidBefore = (
      await app.app.db.selectFrom('users').select('uuid').where('id', '=', customer.id).executeTakeFirstOrThrow()
    ).uuid;
    const usersBefore = (await agent(app, nodes[0]!).users()).body.users;
    expect(usersBefore.map((user: { uuid: string }) => user.uuid)).toContain(uuidBefore);
    // Fetched once before, so that the app keeps the link's customer: the reset drops it at once all the same.
    expect((await fetchFeed(before)).status).toBe(200);

    const reset = await customer.api.put('/mutenet/user/subscribe/url', { token: customer.token });
    expect(reset.body).toEqual({ code: 0, msg: MESSAGES.SUBSCRIPTION_RESET.en, data: null });
    expect((await fetchFeed(before)).status).toBe(404);
    const after = await linkOf(customer);
    expect(after).not.toBe(before);
    expect((await fetchFeed(after)).status).toBe(200);
    const usersAfter = (await agent(app, nodes[0]!).users()).body.users.map((user: { uuid: string }) => user.uuid);
    expect(usersAfter).not.toContain(uuidBefore);
  });

  it('sends a feed compressed as a client app asks (gzip), the same text decoded, and as it is to one that does not', async () => {
    const customer = await newCustomer(seeded.traffic30);
    const url = new URL(await linkOf(customer));
    const fetchRaw = (headers: Record<string, string>) =>
      getRaw(`${app.url}${url.pathname}`, { 'user-agent': 'ClashMetaForAndroid/2.11.5.Meta', ...headers });
    const plain = await fetchRaw({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    for (const [asked, sent] of [
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['gzip;q=0.5, br', 'br'],
      ['br', 'br'],
    ] as const) {
      const answer = await fetchRaw({ 'accept-encoding': asked });
      expect(answer.headers['content-encoding']).toBe(sent);
      expect(answer.body.length).toBeLessThan(plain.body.length / 3);
      expect(decoded(answer)).toBe(plain.body.toString());
    }
  });

  it('limits how often one link is fetched', async () => {
    const customer = await newCustomer(null);
    const link = await linkOf(customer);
    const statuses = [];
    for (let i = 0; i < 31; i++) statuses.push((await httpClient(app.url).get(new URL(link).pathname)).status);
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    const refused = await httpClient(app.url).get(new URL(link).pathname);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 429, data: null });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(FEED_TOKEN_LIMIT.timeWindow / 1000);
  });

  it('limits how many fetches one address makes, known links or not, and counts a refused one against no link', async () => {
    const one = httpClient(app.url);
    const unknownPath = () => `/sub/${randomBytes(32).toString('base64url')}`;
    for (let i = 0; i < FEED_IP_LIMIT.max; i++)
      expect((await one.get(unknownPath())).status, `fetch ${i + 1}`).toBe(404);
    expect((await one.get(unknownPath())).status).toBe(429);
    const path = new URL(await linkOf(await newCustomer(null))).pathname;
    for (let i = 0; i < FEED_TOKEN_LIMIT.max; i++) expect((await one.get(path)).status).toBe(429);
    expect((await httpClient(app.url).get(path)).status).toBe(200);
  });

  it('never logs a subscription token or a node token', async () => {
    const customer = await newCustomer(seeded.traffic30);
    const link = await linkOf(customer);
    await fetchFeed(link);
    await agent(app, nodes[0]!).users();
    const log = app.logs.join('');
    expect(log).toContain('/sub/:token');
    expect(log).not.toContain(link.split('/').at(-1)!);
    for (const node of nodes) expect(log).not.toContain(node.token);
  });

  it('lists the running package first, then the queued ones with their start', async () => {
    const customer = await newCustomer(seeded.traffic30);
    await customer.buy(seeded.quarterly);
    const { body } = await customer.api.get('/mutenet/user/package/stat', { token: customer.token });
    const [running, queued] = body.data;
    expect(running).toMatchObject({
      pdName: 'Traffic 100',
      trafficTotal: 100 * 1024 ** 3,
      trafficUsed: 0,
      trafficUsedPct: 0,
    });
    expect(running.endAt - running.startAt).toBe(30 * 86_400);
    expect(queued).toMatchObject({ pdName: 'Monthly', startAt: running.endAt, endAt: running.endAt + 90 * 86_400 });
    expect((await httpClient(app.url).get('/mutenet/user/package/stat')).status).toBe(401);
  });

  it('shows the notice in the request language, sanitised, and nothing when there is none', async () => {
    const customer = await newCustomer(null);
    expect((await customer.api.get('/mutenet/notice', { token: customer.token })).body.data).toEqual({ content: '' });
    await app.app.notice.set({
      en: 'Maintenance <b>tonight</b><script>x()</script>',
      'pt-BR': 'Manutenção hoje',
      'zh-Hans': '今晚维护',
    });
    expect((await customer.api.get('/mutenet/notice', { token: customer.token })).body.data).toEqual({
      content: 'Maintenance <b>tonight</b>',
    });
    const zh = await httpClient(app.url, { language: 'zh-Hans' }).get('/mutenet/notice', { token: customer.token });
    expect(zh.body.data.content).toBe('今晚维护');
    expect((await httpClient(app.url).get('/mutenet/notice')).status).toBe(401);
    await app.app.notice.clear();
  });

  it('counts the package that started first when several run at once, as a push charges it', async () => {
    const customer = await newCustomer(seeded.traffic30);
    await customer.buy(seeded.traffic30);
    await customer.buy(seeded.traffic30);
    const link = await linkOf(customer);
    const [running, second, third] = await app.app.db
      .selectFrom('user_packages')
      .select(['id', 'starts_at', 'ends_at'])
      .where('user_id', '=', customer.id)
      .orderBy('id')
      .execute();
    // The two queued ones made to run at once with the first (as an operator's change may): one started a minute
    // earlier, and one that started with it but was written later, which comes after it.
    const runAt = (id: number, traffic_total: number) =>
      app.app.db
        .updateTable('user_packages')
        .set({ starts_at: running!.starts_at - 60_000, ends_at: running!.ends_at, traffic_total })
        .where('id', '=', id)
        .execute();
    await runAt(second!.id, 7 * 1024 ** 3);
    await runAt(third!.id, 9 * 1024 ** 3);
    await agent(app, nodes[2]!).push({ [customer.id]: [1000, 2000] });
    const response = await fetchFeed(link, { 'user-agent': 'v2rayNG/1.9.30' });
    expect(response.status).toBe(200);
    expect(response.headers.get('subscription-userinfo')).toBe(
      `upload=1000; download=2000; total=${7 * 1024 ** 3}; expire=${Math.floor(running!.ends_at / 1000)}`,
    );
  });

  it('answers a link fetched again as the database has it after each change: a push, plain SQL, a new package', async () => {
    const customer = await newCustomer(seeded.traffic30);
    const link = await linkOf(customer);
    const feedOf = async () => {
      const response = await fetchFeed(link, { 'user-agent': 'v2rayNG/1.9.30' });
      return {
        status: response.status,
        proxies: response.text !== '',
        userinfo: response.headers.get('subscription-userinfo'),
      };
    };
    const first = await feedOf();
    expect(first).toMatchObject({
      status: 200,
      proxies: true,
      userinfo: expect.stringMatching(/^upload=0; download=0; /),
    });
    const total = Number(/total=(\d+);/.exec(first.userinfo!)![1]);
    // Each change below is a change of the customer's rows, seen by the next fetch.
    expect(await feedOf()).toEqual(first);
    // This instance's own write, seen by its next request.
    await agent(app, nodes[2]!).push({ [customer.id]: [1000, 2000] });
    expect((await feedOf()).userinfo).toMatch(/^upload=1000; download=2000; /);
    // Written by plain SQL, as an operator or another instance would: the allowance is used up, then given back.
    const setTotal = (total: number) =>
      sql`update user_packages set traffic_total = ${total} where user_id = ${customer.id}`.execute(app.app.db);
    await setTotal(3000);
    expect(await feedOf()).toEqual({ status: 200, proxies: false, userinfo: expect.stringMatching(/total=3000;/) });
    await setTotal(total);
    expect((await feedOf()).proxies).toBe(true);
    await sql`update users set banned = 1 where id = ${customer.id}`.execute(app.app.db);
    expect((await feedOf()).status).toBe(404);
    await sql`update users set banned = 0 where id = ${customer.id}`.execute(app.app.db);
    expect((await feedOf()).status).toBe(200);
    // A package bought while the first runs is queued after it: the feed still counts the running one.
    await customer.buy(seeded.traffic30);
    expect((await feedOf()).userinfo).toMatch(new RegExp(`^upload=1000; download=2000; total=${total}; `));
  });

  // Last: it moves the shared clock on by two months.
  it('counts the running package only: a queued one once it runs, a durational one afresh each period', async () => {
    const customer = await newCustomer(seeded.traffic30);
    await customer.buy(seeded.quarterly);
    const link = await linkOf(customer);
    const feedOf = async () => {
      const response = await fetchFeed(link, { 'user-agent': 'v2rayNG/1.9.30' });
      expect(response.status).toBe(200);
      return { proxies: response.text !== '', userinfo: response.headers.get('subscription-userinfo') };
    };
    const [first, queued] = (await customer.api.get('/mutenet/user/package/stat', { token: customer.token })).body.data;
    await agent(app, nodes[2]!).push({ [customer.id]: [1000, 2000] });
    expect(await feedOf()).toEqual({
      proxies: true,
      userinfo: `upload=1000; download=2000; total=${100 * 1024 ** 3}; expire=${first.endAt}`,
    });

    // The dashboard's packages too, read before each change.
    const statOf = async (token: string) =>
      (await customer.api.get('/mutenet/user/package/stat', { token })).body.data as Array<Record<string, unknown>>;
    // 20 seconds before the first package ends, then 20 seconds after: it ends on its own, with no write.
    app.clock.advance((first.endAt - app.clock.now() / 1000 - 20) * 1000);
    const token = await login(customer.api, customer.email);
    expect(await statOf(token)).toMatchObject([{ endAt: first.endAt }, { endAt: queued.endAt }]);
    expect(await feedOf()).toEqual({
      proxies: true,
      userinfo: `upload=1000; download=2000; total=${100 * 1024 ** 3}; expire=${first.endAt}`,
    });
    app.clock.advance(40_000);
    expect(await statOf(token)).toMatchObject([{ pdName: 'Monthly', endAt: queued.endAt, trafficUsed: 0 }]);
    const quarterly = `total=${200 * 1024 ** 3}; expire=${queued.endAt}`;
    expect(await feedOf()).toEqual({ proxies: true, userinfo: `upload=0; download=0; ${quarterly}` });
    await agent(app, nodes[2]!).push({ [customer.id]: [5000, 6000] });
    expect(await feedOf()).toEqual({ proxies: true, userinfo: `upload=5000; download=6000; ${quarterly}` });
    const [running] = await statOf(token);
    expect(running!.trafficUsed).toBeGreaterThan(0);

    app.clock.advance(30 * 86_400_000);
    expect(await feedOf()).toEqual({ proxies: true, userinfo: `upload=0; download=0; ${quarterly}` });
    // A new period of the durational package: its counters start again, though its row is as it was.
    expect(await statOf(await login(customer.api, customer.email))).toMatchObject([
      { endAt: queued.endAt, trafficUsed: 0 },
    ]);
  });
});
