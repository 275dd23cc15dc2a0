import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIB } from '../../lib/units.js';
import { signUp } from '../../test/accounts.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { decoded, getRaw, httpClient } from '../../test/http-client.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

describe.each(DATABASES)('catalogue on %s', (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp({ database });
    seeded = await seedCatalog(app);
    token = await signUp(app, httpClient(app.url), 'shopper@example.com');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('needs a session', async () => {
    expect((await httpClient(app.url).get('/mutenet/packages')).status).toBe(401);
    expect((await httpClient(app.url).get('/mutenet/payment/currencies')).status).toBe(401);
  });

  it('lists the visible plans by group in the request language, prices in major units', async () => {
    const { body } = await httpClient(app.url, { language: 'en' }).get('/mutenet/packages', { token });
    expect(body.code).toBe(0);
    expect(body.data.traffic.map((plan: { pdName: string }) => plan.pdName)).toEqual(['Traffic 100', 'Traffic 500']);
    expect(body.data.durational).toEqual([
      {
        pdId: seeded.durational,
        pdName: 'Monthly',
        content: '<i>m</i>',
        packages: [
          {
            pkgId: seeded.monthly,
            pkgType: '30 days',
            prices: { USD: { price: 6.99, real: 5.99 }, BRL: { price: 34.9, real: 29.9 } },
          },
          {
            pkgId: seeded.quarterly,
            pkgType: '90 days',
            prices: { USD: { price: 16.99, real: 15.99 }, BRL: { price: 84.9, real: 79.9 } },
          },
        ],
      },
    ]);
    const portuguese = await httpClient(app.url, { language: 'pt-BR' }).get('/mutenet/packages', { token });
    expect(portuguese.body.data.durational[0].pdName).toBe('Monthly (pt)');
  });

  it('answers a kept catalogue in each language with the usual headers, its message in that language', async () => {
    const answers = [];
    for (const language of ['en', 'pt-BR', 'zh-Hans', 'en'] as const) {
      const client = httpClient(app.url, { language });
      answers.push({ language, plans: await client.get('/mutenet/packages', { token }) });
      answers.push({ language, plans: await client.get('/mutenet/payment/currencies', { token }) });
    }
    for (const { plans } of answers) {
      expect(plans.status).toBe(200);
      expect(plans.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(plans.headers.get('cache-control')).toBe('no-store');
      expect(plans.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const messages = answers.map(({ plans }) => plans.body.msg);
    expect(new Set(messages).size).toBe(3);
    expect(messages.slice(0, 2)).toEqual(messages.slice(6, 8));
    expect(answers[0]?.plans.body.data.durational[0].pdName).toBe('Monthly');
    expect(answers[2]?.plans.body.data.durational[0].pdName).toBe('Monthly (pt)');
    // The currencies are one kept list whatever the language; only the message differs.
    expect(answers[1]?.plans.body.data).toEqual(answers[3]?.plans.body.data);
  });

  it('serves operator HTML without scripts or handlers', async () => {
    const { body } = await httpClient(app.url, { language: 'en' }).get('/mutenet/packages', { token });
    expect(body.data.traffic[0].content).toBe('<p>100 GB</p>');
  });

  it('leaves out hidden plans, removed packages, plans with nothing to sell and disabled currencies', async () => {
    await app.app.catalog.setPlanVisible(seeded.other, false);
    await app.app.catalog.setCurrencyEnabled('BRL', false);
    const empty = await app.app.catalog.addPlan({
      group: 'durational',
      names: { en: 'Empty', 'pt-BR': 'Empty', 'zh-Hans': 'Empty' },
      contents: { en: '', 'pt-BR': '', 'zh-Hans': '' },
    });
    const { body } = await httpClient(app.url, { language: 'en' }).get('/mutenet/packages', { token });
    expect(body.data.traffic.map((plan: { pdId: number }) => plan.pdId)).toEqual([seeded.traffic]);
    expect(body.data.durational.map((plan: { pdId: number }) => plan.pdId)).not.toContain(empty);
    expect(Object.keys(body.data.traffic[0].packages[0].prices)).toEqual(['USD']);
    const currencies = await httpClient(app.url).get('/mutenet/payment/currencies', { token });
    expect(currencies.body.data.currencies).toEqual([
      { code: 'USD', name: 'US Dollar' },
      { code: 'CLP', name: 'Peso chileno' },
    ]);
    await app.app.catalog.setPlanVisible(seeded.other, true);
    await app.app.catalog.setCurrencyEnabled('BRL', true);
  });

  it('shows on the next request a change written by anyone: the service, another process, or plain SQL', async () => {
    const { db } = app.app;
    const client = httpClient(app.url, { language: 'en' });
    const monthlyUsd = async () => {
      const { body } = await client.get('/mutenet/packages', { token });
      const monthly = body.data.durational[0];
      return { name: monthly.pdName, usd: monthly.packages[0].prices.USD };
    };
    expect(await monthlyUsd()).toEqual({ name: 'Monthly', usd: { price: 6.99, real: 5.99 } });
    await sql`update package_prices set real_minor = 111 where package_id = ${seeded.monthly} and currency = 'USD'`.execute(
      db,
    );
    expect(await monthlyUsd()).toEqual({ name: 'Monthly', usd: { price: 6.99, real: 1.11 } });
    await sql`update plans set names = ${JSON.stringify({ en: 'Renamed', 'pt-BR': 'R', 'zh-Hans': 'R' })} where id = ${seeded.durational}`.execute(
      db,
    );
    expect((await monthlyUsd()).name).toBe('Renamed');
    await sql`update currencies set enabled = 0 where code = 'CLP'`.execute(db);
    const currencies = await httpClient(app.url).get('/mutenet/payment/currencies', { token });
    expect(currencies.body.data.currencies.map((currency: { code: string }) => currency.code)).toEqual(['USD', 'BRL']);

    await sql`delete from package_prices where package_id = ${seeded.monthly} and currency = 'USD'`.execute(db);
    expect((await monthlyUsd()).usd).toBeUndefined();
  });

  it('raises the catalogue version on every write to its four tables, and on no other write', async () => {
    const { db } = app.app;
    const version = async () =>
      Number((await sql<{ version: number }>`select version from catalog_version`.execute(db)).rows[0]!.version);
    const writes = [
      sql`insert into currencies (code, name, decimals, enabled, sort) values ('EUR', 'Euro', 2, 1, 9)`,
      sql`update currencies set sort = 8 where code = 'EUR'`,
      sql`update plans set sort = sort where id = ${seeded.traffic}`,
      sql`update packages set sort = sort where id = ${seeded.monthly}`,
      sql`insert into package_prices (package_id, currency, price_minor, real_minor) values (${seeded.monthly}, 'EUR', 1, 1)`,
      sql`delete from package_prices where currency = 'EUR'`,
      sql`delete from currencies where code = 'EUR'`,
    ];
    for (const write of writes) {
      const before = await version();
      await write.execute(db);
      expect(await version()).toBeGreaterThan(before);
    }
    const before = await version();
    await sql`insert into settings (key, value, updated_at) values ('unrelated', 'x', 0)`.execute(db);
    await sql`update users set name = name`.execute(db);
    expect(await version()).toBe(before);
  });

  // Last: it adds a plan.
  it('sends the catalogue compressed as the client asks, the same bytes each time, the same text decoded', async () => {
    // A plan with a long description, so that the answer is long enough to be worth compressing.
    const described = await app.app.catalog.addPlan({
      group: 'traffic',
      names: { en: 'Described', 'pt-BR': 'Descrito', 'zh-Hans': '描述' },
      contents: {
        en: '<p>Fast and private.</p>'.repeat(60),
        'pt-BR': '<p>Rápido e privado.</p>'.repeat(60),
        'zh-Hans': '<p>快速而私密。</p>'.repeat(60),
      },
    });
    await app.app.catalog.addPackage(described, {
      label: '1 TB',
      days: 30,
      trafficBytes: 1024 * GIB,
      prices: [{ currency: 'USD', price_minor: 1999, real_minor: 1999 }],
    });
    const raw = (acceptEncoding?: string) =>
      getRaw(`${app.url}/mutenet/packages`, {
        authorization: token,
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      });
    const plain = await raw();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const text = plain.body.toString();
    expect(JSON.parse(text).code).toBe(0);
    for (const [asked, sent] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      // Any encoding: @fastify/compress takes gzip.
      ['*', 'gzip'],
    ] as const) {
      const [first, second] = [await raw(asked), await raw(asked)];
      expect(first.headers['content-encoding'], asked).toBe(sent);
      expect(first.headers.vary).toContain('accept-encoding');
      expect(second.body.equals(first.body)).toBe(true);
      expect(decoded(first), asked).toBe(text);
    }
    for (const refused of ['identity', 'br;q=0, gzip;q=0', 'deflate']) expect(decoded(await raw(refused))).toBe(text);
  });
});
