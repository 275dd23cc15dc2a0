import { ERROR_CODE, MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIB } from '../../lib/units.js';
import { signUp } from '../../test/accounts.js';
import { httpClient } from '../../test/http-client.js';
import { type Console, operatorSession } from '../../test/operators.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

const texts = (en: string, pt: string, zh: string) => ({ en, 'pt-BR': pt, 'zh-Hans': zh });

describe.each(DATABASES)('the console catalogue on %s', (database) => {
  let app: TestApp;
  let manager: Console;
  let owner: Console;
  let token: string;

  /** The shop as a customer sees it in a language: GET /mutenet/packages. */
  const shop = async (language = 'en') => {
    const { body } = await httpClient(app.url, { language }).get('/mutenet/packages', { token });
    expect(body.code).toBe(0);
    return body.data;
  };
  const shopPlan = async (id: number, language = 'en') => {
    const plans = await shop(language);
    return [...plans.traffic, ...plans.durational].find((plan: { pdId: number }) => plan.pdId === id);
  };
  /** The newest audit entry of an action on a target, as an owner reads it. */
  const audited = async (action: string, targetId: number | string) => {
    const { body } = await owner.get(`/api/audit?action=${action}&targetId=${targetId}&limit=1`);
    expect(body.code).toBe(0);
    return body.data.entries[0];
  };
  const plan = (name: string, group = 'traffic') => ({
    group,
    names: texts(name, `${name} (pt)`, `${name} (zh)`),
    contents: texts(`<p>${name}</p>`, `<p>${name} pt</p>`, `<p>${name} zh</p>`),
  });
  const addPlan = async (name: string, group = 'traffic') => {
    const { body } = await manager.post('/api/catalog/plans', plan(name, group));
    expect(body.code).toBe(0);
    return body.data.id as number;
  };
  const pkg = (prices: unknown[], label = '30 days') => ({ label, days: 30, trafficBytes: 100 * GIB, prices });

  beforeAll(async () => {
    app = await startTestApp({ database });
    await app.app.catalog.addCurrency('USD', 'US Dollar', 2, 0);
    await app.app.catalog.addCurrency('BRL', 'Real brasileiro', 2, 1);
    manager = (await operatorSession(app, `manager.${database}@example.com`, 'manager')).client;
    owner = (await operatorSession(app, `owner.${database}@example.com`, 'owner')).client;
    token = await signUp(app, httpClient(app.url), `shopper.${database}@example.com`);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates a plan with a package priced in two currencies, which the customer sees at once in each language', async () => {
    const created = await manager.post('/api/catalog/plans', {
      group: 'durational',
      names: texts('Unlimited', 'Ilimitado', '无限'),
      contents: texts(
        '<p onclick="steal()">200 GB every 30 days<script>alert(1)</script></p>',
        '<p>200 GB a cada 30 dias</p>',
        '<p>每 30 天 200 GB</p>',
      ),
      sort: 2,
    });
    expect(created.body).toMatchObject({ code: 0 });
    const planId = created.body.data.id;
    expect(created.body.data).toEqual({
      id: planId,
      group: 'durational',
      names: texts('Unlimited', 'Ilimitado', '无限'),
      // Reduced to formatting when saved, as the command line does; the panel sanitises it again when showing it.
      contents: texts('<p>200 GB every 30 days</p>', '<p>200 GB a cada 30 dias</p>', '<p>每 30 天 200 GB</p>'),
      visible: true,
      sort: 2,
      packages: [],
    });
    // A plan with nothing to sell is not in the shop.
    expect(await shopPlan(planId)).toBeUndefined();

    const added = await manager.post(
      `/api/catalog/plans/${planId}/packages`,
      pkg([
        { currency: 'USD', price: 699, real: 599 },
        { currency: 'BRL', price: 3490, real: 2990 },
      ]),
    );
    expect(added.body).toMatchObject({ code: 0 });
    const packageId = added.body.data.id;
    expect(added.body.data).toEqual({
      id: packageId,
      planId,
      label: '30 days',
      days: 30,
      trafficBytes: 100 * GIB,
      sort: 0,
      prices: [
        { currency: 'USD', price: 699, real: 599, decimals: 2 },
        { currency: 'BRL', price: 3490, real: 2990, decimals: 2 },
      ],
    });

    const packages = [
      {
        pkgId: packageId,
        pkgType: '30 days',
        prices: { USD: { price: 6.99, real: 5.99 }, BRL: { price: 34.9, real: 29.9 } },
      },
    ];
    expect(await shopPlan(planId, 'en')).toEqual({
      pdId: planId,
      pdName: 'Unlimited',
      content: '<p>200 GB every 30 days</p>',
      packages,
    });
    expect(await shopPlan(planId, 'pt-BR')).toEqual({
      pdId: planId,
      pdName: 'Ilimitado',
      content: '<p>200 GB a cada 30 dias</p>',
      packages,
    });
    expect(await shopPlan(planId, 'zh-Hans')).toEqual({
      pdId: planId,
      pdName: '无限',
      content: '<p>每 30 天 200 GB</p>',
      packages,
    });

    expect(await audited('plan.create', planId)).toMatchObject({
      targetType: 'plan',
      before: null,
      after: { plan_group: 'durational', names: texts('Unlimited', 'Ilimitado', '无限'), sort: 2 },
    });
    expect(await audited('package.create', packageId)).toMatchObject({
      targetType: 'package',
      before: null,
      after: {
        plan_id: planId,
        label: '30 days',
        days: 30,
        prices: [
          { currency: 'USD', price_minor: 699, real_minor: 599 },
          { currency: 'BRL', price_minor: 3490, real_minor: 2990 },
        ],
      },
    });

    // The list holds it in its group, with every price.
    const list = await manager.get('/api/catalog/plans');
    expect(list.body.code).toBe(0);
    expect(list.body.data.durational).toContainEqual({ ...created.body.data, packages: [added.body.data] });
  });

  it('updates a plan and a package, the customer seeing each change at once, the audit only what changed', async () => {
    const planId = await addPlan('Traffic 100');
    const packageId = (
      await manager.post(
        `/api/catalog/plans/${planId}/packages`,
        pkg([
          { currency: 'USD', price: 600, real: 500 },
          { currency: 'BRL', price: 3000, real: 2500 },
        ]),
      )
    ).body.data.id;
    expect((await shopPlan(planId, 'pt-BR')).pdName).toBe('Traffic 100 (pt)');

    const names = texts('Traffic 100', 'Tráfego cem', '流量 100');
    const updated = await manager.put(`/api/catalog/plans/${planId}`, { names });
    expect(updated.body).toMatchObject({ code: 0, data: { names, contents: plan('Traffic 100').contents } });
    expect((await shopPlan(planId, 'pt-BR')).pdName).toBe('Tráfego cem');
    expect(await audited('plan.update', planId)).toMatchObject({
      before: { names: plan('Traffic 100').names },
      after: { names },
    });
    expect(Object.keys((await audited('plan.update', planId)).after)).toEqual(['names']);

    const changed = await manager.put(`/api/catalog/packages/${packageId}`, {
      label: '100 GB / 30 days',
      prices: [{ currency: 'USD', price: 699, real: 599 }],
    });
    expect(changed.body).toMatchObject({
      code: 0,
      data: {
        label: '100 GB / 30 days',
        prices: [
          { currency: 'USD', price: 699, real: 599 },
          { currency: 'BRL', price: 3000, real: 2500 },
        ],
      },
    });
    expect((await shopPlan(planId)).packages).toEqual([
      {
        pkgId: packageId,
        pkgType: '100 GB / 30 days',
        prices: { USD: { price: 6.99, real: 5.99 }, BRL: { price: 30, real: 25 } },
      },
    ]);
    expect(await audited('package.update', packageId)).toMatchObject({
      before: { label: '30 days', prices: [{ currency: 'USD', price_minor: 600, real_minor: 500 }] },
      after: { label: '100 GB / 30 days', prices: [{ currency: 'USD', price_minor: 699, real_minor: 599 }] },
    });

    // Removed, the package leaves the shop, and with it the plan that has nothing else to sell.
    expect((await manager.delete(`/api/catalog/packages/${packageId}`)).body).toMatchObject({
      code: 0,
      data: { id: packageId },
    });
    expect(await shopPlan(planId)).toBeUndefined();
    expect(await audited('package.remove', packageId)).toMatchObject({
      before: { removed: false },
      after: { removed: true },
    });
    const again = await manager.delete(`/api/catalog/packages/${packageId}`);
    expect([again.status, again.body.code]).toEqual([404, ERROR_CODE.NOT_FOUND]);
  });

  it('hides a plan from the shop and lists it again', async () => {
    const planId = await addPlan('Hideable');
    await manager.post(`/api/catalog/plans/${planId}/packages`, pkg([{ currency: 'USD', price: 100, real: 100 }]));
    expect(await shopPlan(planId)).toBeDefined();

    const hidden = await manager.put(`/api/catalog/plans/${planId}/visible`, { visible: false });
    expect(hidden.body).toMatchObject({ code: 0, data: { id: planId, visible: false } });
    expect(await shopPlan(planId)).toBeUndefined();
    expect(await audited('plan.hide', planId)).toMatchObject({ before: { visible: true }, after: { visible: false } });
    // Still in the console's list.
    const list = (await manager.get('/api/catalog/plans')).body.data;
    expect(list.traffic.find((p: { id: number }) => p.id === planId)).toMatchObject({ visible: false });

    expect((await manager.put(`/api/catalog/plans/${planId}/visible`, { visible: true })).body.code).toBe(0);
    expect(await shopPlan(planId)).toBeDefined();
    expect(await audited('plan.unhide', planId)).toMatchObject({ after: { visible: true } });
  });

  it('puts a group in the order given, in the console and in the shop', async () => {
    const ids = [await addPlan('First', 'durational'), await addPlan('Second', 'durational')];
    for (const id of ids) {
      await manager.post(`/api/catalog/plans/${id}/packages`, pkg([{ currency: 'USD', price: 100, real: 100 }]));
    }
    const others = (await manager.get('/api/catalog/plans')).body.data.durational
      .map((p: { id: number }) => p.id)
      .filter((id: number) => !ids.includes(id));
    const ordered = await manager.put('/api/catalog/plan-order', { group: 'durational', planIds: [ids[1], ids[0]] });
    expect(ordered.body.code).toBe(0);
    expect(ordered.body.data.durational.map((p: { id: number }) => p.id)).toEqual([ids[1], ids[0], ...others]);
    const shown = (await shop()).durational.map((p: { pdId: number }) => p.pdId);
    expect(shown.filter((id: number) => ids.includes(id))).toEqual([ids[1], ids[0]]);
    // Only the plans that moved: the second was first already (both at 0), the first moves to 1.
    const reordered = await audited('plan.reorder', 'durational');
    expect(reordered.before.sort[String(ids[0])]).toBe(0);
    expect(reordered.after.sort[String(ids[0])]).toBe(1);
    expect(reordered.after.sort).not.toHaveProperty(String(ids[1]));

    // A plan of the other group, or none at all, is refused.
    const traffic = await addPlan('Elsewhere');
    for (const planIds of [[traffic], [999_999]]) {
      const refused = await manager.put('/api/catalog/plan-order', { group: 'durational', planIds });
      expect([refused.status, refused.body.code]).toEqual([404, ERROR_CODE.NOT_FOUND]);
    }
  });

  it('refuses a package the rules do not allow, in the operator’s language, and changes nothing', async () => {
    const planId = await addPlan('Rules');
    const before = (await manager.get('/api/catalog/plans')).body.data;
    const add = (body: unknown, language = 'en') =>
      manager.post(`/api/catalog/plans/${planId}/packages`, body, { 'accept-language': language });
    const cases: [unknown, keyof typeof ERROR_CODE][] = [
      [pkg([{ currency: 'USD', price: 499, real: 599 }]), 'PRICE_OLD_BELOW_REAL'],
      [pkg([{ currency: 'JPY', price: 100, real: 90 }]), 'CURRENCY_NOT_FOUND'],
      [
        pkg([
          { currency: 'USD', price: 100, real: 90 },
          { currency: 'USD', price: 200, real: 90 },
        ]),
        'PRICE_CURRENCY_TWICE',
      ],
    ];
    for (const [body, key] of cases) {
      const refused = await add(body, 'pt-BR');
      expect(refused.status, key).toBe(200);
      expect(refused.body, key).toMatchObject({ code: ERROR_CODE[key], msg: MESSAGES[key]['pt-BR'] });
    }
    const refusedUpdate = await manager.put(`/api/catalog/packages/${before.traffic[0]?.packages[0]?.id ?? 1}`, {
      prices: [{ currency: 'XYZ', price: 1, real: 1 }],
    });
    expect(refusedUpdate.body.code).not.toBe(0);

    const bad = [
      pkg([]),
      pkg([{ currency: 'USD', price: -1, real: -1 }]),
      pkg([{ currency: 'USD', price: 1.5, real: 1 }]),
      pkg([{ currency: 'usd', price: 1, real: 1 }]),
      { ...pkg([{ currency: 'USD', price: 1, real: 1 }]), days: 0 },
      { ...pkg([{ currency: 'USD', price: 1, real: 1 }]), trafficBytes: 0 },
      { ...pkg([{ currency: 'USD', price: 1, real: 1 }]), label: ' ' },
      { ...pkg([{ currency: 'USD', price: 1, real: 1 }]), label: 'x'.repeat(65) },
      { label: '30 days' },
    ];
    for (const body of bad) {
      const refused = await add(body, 'zh-Hans');
      expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, ERROR_CODE.BAD_REQUEST]);
      expect(refused.body.msg).toBe(MESSAGES.BAD_REQUEST['zh-Hans']);
    }
    const noPlan = await manager.post(
      '/api/catalog/plans/999999/packages',
      pkg([{ currency: 'USD', price: 1, real: 1 }]),
    );
    expect([noPlan.status, noPlan.body.code]).toEqual([404, ERROR_CODE.NOT_FOUND]);
    expect((await manager.get('/api/catalog/plans')).body.data).toEqual(before);
  });

  it('refuses bad plans with a clear answer, never a 500', async () => {
    const before = (await manager.get('/api/catalog/plans')).body.data;
    const bad: unknown[] = [
      { ...plan('X'), group: 'monthly' },
      { ...plan('X'), names: { en: 'X', 'pt-BR': 'X' } },
      { ...plan('X'), names: texts('', 'X', 'X') },
      { ...plan('X'), names: texts('x'.repeat(201), 'X', 'X') },
      { ...plan('X'), contents: texts('x'.repeat(20_001), '', '') },
      { ...plan('X'), sort: 1.5 },
      { ...plan('X'), sort: 10_000_000 },
      {},
    ];
    for (const body of bad) {
      const refused = await manager.post('/api/catalog/plans', body);
      expect([refused.status, refused.body.code]).toEqual([400, ERROR_CODE.BAD_REQUEST]);
    }
    for (const [path, body] of [
      ['/api/catalog/plans/abc', { sort: 1 }],
      ['/api/catalog/plans/0', { sort: 1 }],
      ['/api/catalog/plans/1/visible', { visible: 'yes' }],
    ] as const) {
      const refused = await manager.put(path, body);
      expect([refused.status, refused.body.code], path).toEqual([400, ERROR_CODE.BAD_REQUEST]);
    }
    const missing = await manager.put('/api/catalog/plans/999999', { sort: 1 });
    expect([missing.status, missing.body.code]).toEqual([404, ERROR_CODE.NOT_FOUND]);
    const duplicates = await manager.put('/api/catalog/plan-order', { group: 'traffic', planIds: [1, 1] });
    expect(duplicates.status).toBe(400);
    const notJson = await manager.call('POST', '/api/catalog/plans', undefined, { 'content-type': 'application/json' });
    expect(notJson.status).toBeLessThan(500);
    expect((await manager.get('/api/catalog/plans')).body.data).toEqual(before);
  });

  it('lists and adds currencies, refusing a taken code', async () => {
    const added = await manager.post('/api/catalog/currencies', { code: 'clp', name: 'Peso chileno', decimals: 0 });
    expect(added.body).toMatchObject({
      code: 0,
      data: { code: 'CLP', name: 'Peso chileno', decimals: 0, enabled: true, sort: 0 },
    });
    expect(await audited('currency.create', 'CLP')).toMatchObject({
      targetType: 'currency',
      before: null,
      after: { code: 'CLP', name: 'Peso chileno', decimals: 0, sort: 0 },
    });
    const list = await manager.get('/api/catalog/currencies');
    expect(list.body.data.currencies.map((c: { code: string }) => c.code)).toEqual(['CLP', 'USD', 'BRL']);

    const taken = await manager.post('/api/catalog/currencies', { code: 'USD', name: 'Another' });
    expect(taken.body).toMatchObject({ code: ERROR_CODE.CURRENCY_EXISTS });
    for (const body of [
      { code: 'US', name: 'X' },
      { code: 'U$D', name: 'X' },
      { code: 'EUR', name: ' ' },
      { code: 'EUR', name: 'x'.repeat(65) },
      { code: 'EUR', name: 'Euro', decimals: 5 },
    ]) {
      const refused = await manager.post('/api/catalog/currencies', body);
      expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, ERROR_CODE.BAD_REQUEST]);
    }
    expect((await manager.get('/api/catalog/currencies')).body.data).toEqual(list.body.data);

    // A price in the new currency, with its own decimals, reaches the shop.
    const planId = await addPlan('In pesos');
    await manager.post(`/api/catalog/plans/${planId}/packages`, pkg([{ currency: 'CLP', price: 5000, real: 4500 }]));
    expect((await shopPlan(planId)).packages[0].prices).toEqual({ CLP: { price: 5000, real: 4500 } });
  });

  it('stops and resumes offering a currency: its prices leave the shop and come back', async () => {
    const planId = await addPlan('Priced twice');
    await manager.post(
      `/api/catalog/plans/${planId}/packages`,
      pkg([
        { currency: 'USD', price: 500, real: 400 },
        { currency: 'BRL', price: 2500, real: 2000 },
      ]),
    );
    const off = await manager.put('/api/catalog/currencies/BRL/enabled', { enabled: false });
    expect(off.body).toMatchObject({ code: 0, data: { code: 'BRL', enabled: false } });
    expect((await shopPlan(planId)).packages[0].prices).toEqual({ USD: { price: 5, real: 4 } });
    expect(await audited('currency.disable', 'BRL')).toMatchObject({
      before: { enabled: true },
      after: { enabled: false },
    });

    const on = await manager.put('/api/catalog/currencies/BRL/enabled', { enabled: true });
    expect(on.body).toMatchObject({ code: 0, data: { code: 'BRL', enabled: true } });
    expect(Object.keys((await shopPlan(planId)).packages[0].prices).sort()).toEqual(['BRL', 'USD']);
    expect(await audited('currency.enable', 'BRL')).toMatchObject({ after: { enabled: true } });

    const missing = await manager.put('/api/catalog/currencies/XYZ/enabled', { enabled: false });
    expect(missing.body).toMatchObject({ code: ERROR_CODE.CURRENCY_NOT_FOUND });
    for (const [path, body] of [
      ['/api/catalog/currencies/brl/enabled', { enabled: false }],
      ['/api/catalog/currencies/BRL/enabled', { enabled: 'no' }],
    ] as const) {
      const refused = await manager.put(path, body);
      expect([refused.status, refused.body.code], path).toEqual([400, ERROR_CODE.BAD_REQUEST]);
    }
  });
});
