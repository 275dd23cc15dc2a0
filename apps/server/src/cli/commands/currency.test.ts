import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../test/accounts.js';
import { adminDatabase, adminInProcess, expectFailure, jsonOf } from '../../test/admin-cli.js';
import { httpClient } from '../../test/http-client.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

describe.each(DATABASES)('admin currency on %s', (database) => {
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  let app: TestApp;
  // In this process: admin.test.ts and the other commands' suites run the real child process.
  const run = (...args: string[]) => adminInProcess(db.url, args);

  beforeAll(async () => {
    db = await adminDatabase(database);
    app = await startTestApp({ env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('adds, lists, disables and enables currencies', { timeout: 60_000 }, async () => {
    const [usd, clp] = await Promise.all([
      run('currency', 'add', '--code', 'usd', '--name', 'US Dollar', '--json'),
      run('currency', 'add', '--code', 'CLP', '--name', 'Peso chileno', '--decimals', '0', '--sort', '2', '--json'),
    ]);
    expect(jsonOf(usd)).toEqual({ code: 'USD', name: 'US Dollar', decimals: 2, enabled: true, sort: 0 });
    expect(jsonOf(clp)).toEqual({ code: 'CLP', name: 'Peso chileno', decimals: 0, enabled: true, sort: 2 });

    const [again, disabled, unknown] = await Promise.all([
      run('currency', 'add', '--code', 'USD', '--name', 'Another'),
      run('currency', 'disable', 'clp', '--json'),
      run('currency', 'enable', 'XYZ'),
    ]);
    expectFailure(again, 1, /^admin: currency USD exists already$/m);
    expect(jsonOf(disabled)).toMatchObject({ code: 'CLP', enabled: false });
    expectFailure(unknown, 1, /^admin: currency XYZ not found$/m);
    expect((await app.app.catalog.findCurrency('USD'))?.name).toBe('US Dollar');

    // A disabled currency is no longer offered to customers, and the list still shows it.
    const api = httpClient(app.url, { language: 'en' });
    const token = await signUp(app, api, `currency.${database}@example.com`);
    const offered = async () =>
      (await api.get('/mutenet/payment/currencies', { token })).body.data.currencies.map(
        (c: { code: string }) => c.code,
      );
    expect(await offered()).toEqual(['USD']);
    const list = await run('currency', 'list');
    expect(list).toMatchObject({ status: 0, stderr: '' });
    expect(list.stdout.split('\n')).toEqual([
      'CODE  NAME          DECIMALS  ENABLED  SORT',
      'USD   US Dollar     2         yes      0',
      'CLP   Peso chileno  0         no       2',
      '',
    ]);

    const enabled = await run('currency', 'enable', 'CLP');
    expect(enabled).toMatchObject({ status: 0, stderr: '' });
    expect(enabled.stdout).toMatch(/^currency CLP enabled\n(.*\n)*enabled: +yes\n/);
    expect(await offered()).toEqual(['USD', 'CLP']);
  });
});
