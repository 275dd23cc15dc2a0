import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIB } from '../../lib/units.js';
import { signUp } from '../../test/accounts.js';
import { adminDatabase, adminInProcess, expectFailure, jsonOf } from '../../test/admin-cli.js';
import { type HttpClient, httpClient } from '../../test/http-client.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

describe.each(DATABASES)('admin plan and package on %s', (database) => {
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  let app: TestApp;
  let api: HttpClient;
  let token: string;
  // In this process: admin.test.ts and the other commands' suites run the real child process.
  const run = (...args: string[]) => adminInProcess(db.url, args);
  /** The shop as a customer sees it: GET /mutenet/packages. */
  const shop = async (language = 'en') =>
    (await api.get('/mutenet/packages', { token, headers: { 'accept-language': language } })).body.data;

  beforeAll(async () => {
    db = await adminDatabase(database);
    app = await startTestApp({ env: { DATABASE_URL: db.url } });
    await app.app.catalog.addCurrency('USD', 'US Dollar', 2, 0);
    await app.app.catalog.addCurrency('BRL', 'Real', 2, 1);
    await app.app.catalog.addCurrency('CLP', 'Peso chileno', 0, 2);
    api = httpClient(app.url);
    token = await signUp(app, api, `plans.${database}@example.com`);
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('adds a plan and its package, which customers then see in every language', { timeout: 60_000 }, async () => {
    const plan = jsonOf(
      await run(
        'plan',
        'add',
        '--group',
        'durational',
        '--name',
        'Unlimited',
        '--name-zh',
        '无限',
        '--content',
        '<p onclick="steal()">200 GB every 30 days<script>alert(1)</script></p>',
        '--sort',
        '3',
        '--json',
      ),
    );
    expect(plan).toEqual({
      id: expect.any(Number),
      group: 'durational',
      visible: true,
      sort: 3,
      names: { en: 'Unlimited', 'pt-BR': 'Unlimited', 'zh-Hans': '无限' },
      contents: {
        en: '<p>200 GB every 30 days</p>',
        'pt-BR': '<p>200 GB every 30 days</p>',
        'zh-Hans': '<p>200 GB every 30 days</p>',
      },
      packages: [],
    });

    const pkg = jsonOf(
      await run(
        'package',
        'add',
        '--plan',
        String(plan.id),
        '--label',
        '30 days',
        '--days',
        '30',
        '--traffic-gb',
        '100',
        '--price',
        'USD:5.99/4.99',
        '--price',
        'brl:29.9/29.90',
        '--price',
        'CLP:5000/4500',
        '--json',
      ),
    );
    expect(pkg).toEqual({
      id: expect.any(Number),
      planId: plan.id,
      label: '30 days',
      days: 30,
      trafficBytes: 100 * GIB,
      trafficGb: 100,
      sort: 0,
      prices: { USD: { price: 5.99, real: 4.99 }, BRL: { price: 29.9, real: 29.9 }, CLP: { price: 5000, real: 4500 } },
    });
    expect(await app.app.catalog.findPackage(pkg.id)).toMatchObject({
      traffic_bytes: 100 * GIB,
      prices: [
        { currency: 'USD', price_minor: 599, real_minor: 499 },
        { currency: 'BRL', price_minor: 2990, real_minor: 2990 },
        { currency: 'CLP', price_minor: 5000, real_minor: 4500 },
      ],
    });

    expect((await shop('zh-Hans')).durational).toEqual([
      {
        pdId: plan.id,
        pdName: '无限',
        content: '<p>200 GB every 30 days</p>',
        packages: [
          {
            pkgId: pkg.id,
            pkgType: '30 days',
            prices: {
              USD: { price: 5.99, real: 4.99 },
              BRL: { price: 29.9, real: 29.9 },
              CLP: { price: 5000, real: 4500 },
            },
          },
        ],
      },
    ]);
  });

  it('updates, shows, lists, hides and removes', { timeout: 90_000 }, async () => {
    const planId = await app.app.catalog.addPlan({
      group: 'traffic',
      names: { en: 'Traffic 100', 'pt-BR': 'Tráfego 100', 'zh-Hans': '流量 100' },
      contents: { en: '<p>en</p>', 'pt-BR': '<p>pt</p>', 'zh-Hans': '<p>zh</p>' },
    });
    const prices = [
      { currency: 'USD', price_minor: 600, real_minor: 500 },
      { currency: 'BRL', price_minor: 3000, real_minor: 2500 },
    ];
    const keep = (await app.app.catalog.addPackage(planId, {
      label: '100 GB',
      days: 30,
      trafficBytes: 100 * GIB,
      prices,
    }))!;
    const drop = (await app.app.catalog.addPackage(planId, { label: '5 GB', days: 7, trafficBytes: 5 * GIB, prices }))!;

    // Only the languages given change; the package keeps the prices it is not given.
    const [plan, pkg] = await Promise.all([
      run('plan', 'update', String(planId), '--name-pt', 'Tráfego cem', '--content-zh', '<p>新</p>', '--json'),
      run('package', 'update', String(keep), '--label', '100 GB / 30 days', '--price', 'USD:6.99/5.99', '--json'),
    ]);
    expect(jsonOf(plan)).toMatchObject({
      group: 'traffic',
      names: { en: 'Traffic 100', 'pt-BR': 'Tráfego cem', 'zh-Hans': '流量 100' },
      contents: { en: '<p>en</p>', 'pt-BR': '<p>pt</p>', 'zh-Hans': '<p>新</p>' },
    });
    expect(jsonOf(pkg)).toMatchObject({
      label: '100 GB / 30 days',
      prices: { USD: { price: 6.99, real: 5.99 }, BRL: { price: 30, real: 25 } },
    });

    const [show, list] = await Promise.all([run('plan', 'show', String(planId)), run('plan', 'list')]);
    expect(show).toMatchObject({ status: 0, stderr: '' });
    expect(show.stdout).toContain('name (pt-BR):       Tráfego cem\n');
    expect(show.stdout).toMatch(
      new RegExp(`\\n${keep} +100 GB / 30 days +30 +100 GB +0 +USD 6.99/5.99, BRL 30.00/25.00\\n`),
    );
    expect(list).toMatchObject({ status: 0, stderr: '' });
    const lines = list.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^PLAN +GROUP +VISIBLE +SORT +NAME \(en \/ pt-BR \/ zh-Hans\) +PKG +LABEL +DAYS +TRAFFIC +PRICES/,
    );
    const row = lines.find((line) => line.startsWith(`${planId} `));
    expect(row).toMatch(
      /traffic +yes +0 +Traffic 100 \/ Tráfego cem \/ 流量 100 +\d+ +100 GB \/ 30 days +30 +100 GB +USD 6.99/,
    );
    // Columns line up: each package's label starts where the header's LABEL does (the Chinese name is 2 columns wide).
    const labelAt = lines[0]!.indexOf('LABEL');
    expect(lines.filter((line) => line.includes('5 GB')).map((line) => line.indexOf('5 GB'))).toEqual([labelAt]);

    // Hidden, the plan leaves the shop but stays in the operator's list; unhidden, it is back.
    const hidden = await run('plan', 'hide', String(planId), '--json');
    expect(jsonOf(hidden)).toMatchObject({ id: planId, visible: false });
    expect((await shop()).traffic.map((p: { pdId: number }) => p.pdId)).not.toContain(planId);
    expect(jsonOf(await run('plan', 'list', '--json')).find((p: { id: number }) => p.id === planId)).toMatchObject({
      visible: false,
    });
    expect((await run('plan', 'unhide', String(planId))).status).toBe(0);
    expect((await shop()).traffic.map((p: { pdId: number }) => p.pdId)).toContain(planId);

    // Removed, a package leaves the plan; removing it again fails.
    const removed = await run('package', 'remove', String(drop), '--json');
    expect(jsonOf(removed)).toEqual({ id: drop, removed: true });
    expect((await app.app.catalog.packagesOf([planId])).map((p) => p.id)).toEqual([keep]);
    expectFailure(
      await run('package', 'remove', String(drop)),
      1,
      new RegExp(`^admin: package ${drop} not found$`, 'm'),
    );
  });

  it('refuses what the database does not allow and changes nothing', { timeout: 60_000 }, async () => {
    const planId = await app.app.catalog.addPlan({
      group: 'traffic',
      names: { en: 'P', 'pt-BR': 'P', 'zh-Hans': 'P' },
      contents: { en: '', 'pt-BR': '', 'zh-Hans': '' },
    });
    const before = {
      plans: await app.app.catalog.listAllPlans(),
      packages: await app.app.catalog.packagesOf([planId]),
    };
    const add = (...price: string[]) =>
      run('package', 'add', '--plan', String(planId), '--label', 'L', '--days', '30', '--traffic-gb', '1', ...price);
    const [noPlan, noCurrency, decimals, noDecimals, oldBelow, updateMissing, hideMissing, showMissing] =
      await Promise.all([
        run(
          'package',
          'add',
          '--plan',
          '999999',
          '--label',
          'L',
          '--days',
          '30',
          '--traffic-gb',
          '1',
          '--price',
          'USD:1/1',
        ),
        add('--price', 'USD:1/1', '--price', 'JPY:100/90'),
        add('--price', 'USD:5.999/4.99'),
        add('--price', 'CLP:5000.5/4000'),
        add('--price', 'USD:4.99/5.99'),
        run('plan', 'update', '999999', '--name', 'X'),
        run('plan', 'hide', '999999'),
        run('plan', 'show', '999999'),
      ]);
    expectFailure(noPlan, 1, /^admin: plan 999999 not found$/m);
    expectFailure(noCurrency, 1, /^admin: currency JPY not found/m);
    expectFailure(decimals, 2, /bad --price "USD:5.999\/4.99": USD takes at most 2 decimals/);
    expectFailure(noDecimals, 2, /bad --price "CLP:5000.5\/4000": CLP takes no decimals/);
    expectFailure(oldBelow, 2, /the old price must not be below the real one/);
    expectFailure(updateMissing, 1, /^admin: plan 999999 not found$/m);
    expectFailure(hideMissing, 1, /^admin: plan 999999 not found$/m);
    expectFailure(showMissing, 1, /^admin: plan 999999 not found$/m);
    expect({
      plans: await app.app.catalog.listAllPlans(),
      packages: await app.app.catalog.packagesOf([planId]),
    }).toEqual(before);
  });
});
