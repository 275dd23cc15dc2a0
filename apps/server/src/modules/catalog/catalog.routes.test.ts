import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../test/accounts.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { httpClient } from '../../test/http-client.js';
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
});
