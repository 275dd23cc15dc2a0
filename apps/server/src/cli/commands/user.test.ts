import { once } from 'node:events';
import { ERRORS } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIB } from '../../lib/units.js';
import { DAY_MS, USERS_VERSION_KEY } from '../../modules/subscription/subscription.service.js';
import { connectRedis, REDIS_KEY_PREFIX, RedisStore } from '../../plugins/app/store.js';
import { captcha, PASSWORD } from '../../test/accounts.js';
import { admin, adminDatabase, adminInProcess, expectFailure, jsonOf } from '../../test/admin-cli.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { httpClient } from '../../test/http-client.js';
import { type Customer, customerWithPackage } from '../../test/subscription.js';
import { DATABASES, REDIS_URL, startTestApp, type TestApp } from '../../test/test-app.js';

describe.each(DATABASES)('admin user on %s', (database) => {
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  let app: TestApp;
  let catalog: SeededCatalog;
  /** A running durational package, then a traffic one queued after it. */
  let queued: Customer;
  /** No package at all. */
  let idle: Customer;
  const inProcess = (...args: string[]) => adminInProcess(db.url, args);
  const usableIds = async () => (await app.app.subscriptions.usableUsers()).map((user) => user.id);
  /** The session check: code 0 with the user while the token is live, HTTP 401 once it is revoked. */
  const session = (customer: Customer) => httpClient(app.url).post('/mutenet/login', { token: customer.token });
  const login = async (customer: Customer) =>
    (
      await httpClient(app.url).post('/mutenet/login', {
        form: { email: customer.email, password: PASSWORD, ...(await captcha(customer.api)) },
      })
    ).body;

  beforeAll(async () => {
    db = await adminDatabase(database);
    app = await startTestApp({ env: { DATABASE_URL: db.url } });
    catalog = await seedCatalog(app);
    queued = await customerWithPackage(app, `queued_${database}@example.com`, catalog.monthly);
    await queued.buy(catalog.traffic30);
    idle = await customerWithPackage(app, `idle.${database}@example.com`, null);
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('lists accounts by part of the email, banned ones, newest first', { timeout: 60_000 }, async () => {
    const all = jsonOf(await inProcess('user', 'list', '--json'));
    expect(all.map((user: { email: string }) => user.email)).toEqual([idle.email, queued.email]);
    expect(all[0]).toEqual({
      id: idle.id,
      email: idle.email,
      name: 'Test User',
      banned: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Any case; % and _ are the characters themselves, not patterns.
    const [search, underscore, percent, limited, banned] = await Promise.all([
      inProcess('user', 'list', '--search', `QUEUED_${database}`, '--json'),
      inProcess('user', 'list', '--search', '_', '--json'),
      inProcess('user', 'list', '--search', '%', '--json'),
      inProcess('user', 'list', '--limit', '1', '--json'),
      inProcess('user', 'list', '--banned', '--json'),
    ]);
    expect(jsonOf(search)).toEqual([expect.objectContaining({ id: queued.id })]);
    expect(jsonOf(underscore)).toEqual([expect.objectContaining({ id: queued.id })]);
    expect(jsonOf(percent)).toEqual([]);
    expect(jsonOf(limited)).toEqual([expect.objectContaining({ id: idle.id })]);
    expect(jsonOf(banned)).toEqual([]);

    const text = await inProcess('user', 'list', '--search', 'nobody');
    expect(text).toMatchObject({ status: 0, stdout: 'no users\n', stderr: '' });
  });

  it('shows an account with its running and queued packages', { timeout: 60_000 }, async () => {
    const shown = jsonOf(await inProcess('user', 'show', queued.email.toUpperCase(), '--json'));
    expect(shown).toMatchObject({ id: queued.id, email: queued.email, banned: false });
    expect(shown.packages).toEqual([
      expect.objectContaining({
        planNames: expect.objectContaining({ en: 'Monthly' }),
        group: 'durational',
        state: 'running',
        trafficUsed: 0,
        trafficTotal: 200 * GIB,
      }),
      expect.objectContaining({
        planNames: expect.objectContaining({ en: 'Traffic 100' }),
        group: 'traffic',
        state: 'queued',
        startAt: shown.packages[0].endAt,
        trafficTotal: 100 * GIB,
      }),
    ]);
    const text = await inProcess('user', 'show', queued.email);
    expect(text.stdout).toMatch(new RegExp(`^id: +${queued.id}\\nemail: +${queued.email}\\n`));
    expect(text.stdout).toMatch(/^PKG +PLAN +GROUP +STATE +START +END +USED +TOTAL$/m);
    expect(text.stdout).toMatch(/ Monthly +durational +running +\S+ +\S+ +0 GB +200 GB$/m);
    expect((await inProcess('user', 'show', idle.email)).stdout).toContain('\n\nno packages\n');
    expectFailure(
      await inProcess('user', 'show', 'nobody@example.com'),
      1,
      /^admin: no user with the email nobody@example.com$/m,
    );
  });

  it('bans a user: sessions revoked, sign-in refused, left out of the nodes’ user list, the link dead', {
    timeout: 60_000,
  }, async () => {
    const customer = await customerWithPackage(app, `banned.${database}@example.com`, catalog.monthly);
    expect(await usableIds()).toContain(customer.id);
    expect((await session(customer)).body).toMatchObject({ code: 0 });
    const link = new URL((await customer.api.get('/mutenet/user/subscribe/url', { token: customer.token })).text);
    // Served before the ban.
    const feedStatus = async () => (await httpClient(app.url).get(link.pathname)).status;
    expect(await feedStatus()).toBe(200);

    const banned = await admin(db.url, 'user', 'ban', customer.email);
    expect(banned).toMatchObject({ status: 0, stderr: '' });
    expect(banned.stdout).toMatch(new RegExp(`^${customer.email} banned\\n(.*\\n)*banned: +yes\\n`));
    expect((await session(customer)).status).toBe(401);
    expect(await login(customer)).toMatchObject({ code: ERRORS.ACCOUNT_DISABLED.code });
    expect(await usableIds()).not.toContain(customer.id);
    expect(await feedStatus()).toBe(404);
    expect(jsonOf(await inProcess('user', 'list', '--banned', '--json'))).toEqual([
      expect.objectContaining({ id: customer.id, banned: true }),
    ]);
    // Twice: still banned, nothing else happens.
    expect(jsonOf(await inProcess('user', 'ban', customer.email, '--json'))).toMatchObject({ banned: true });

    const unbanned = jsonOf(await inProcess('user', 'unban', customer.email, '--json'));
    expect(unbanned).toMatchObject({
      id: customer.id,
      banned: false,
      packages: [expect.objectContaining({ state: 'running' })],
    });
    expect(await usableIds()).toContain(customer.id);
    expect(await feedStatus()).toBe(200);
    // The sessions were revoked, not only refused while banned: the old token stays dead.
    expect((await session(customer)).status).toBe(401);
    expect(await login(customer)).toMatchObject({ code: 0 });
    expectFailure(
      await inProcess('user', 'ban', 'nobody@example.com'),
      1,
      /^admin: no user with the email nobody@example.com$/m,
    );
  });

  it('adds days to the running package and moves the queued one after it', { timeout: 60_000 }, async () => {
    const [running, next] = await app.app.subscriptions.packagesOf(queued.id);
    const extended = jsonOf(await inProcess('user', 'add-days', queued.email, '--days', '7', '--json'));
    expect(extended.id).toBe(queued.id);
    const [runningAfter, nextAfter] = await app.app.subscriptions.packagesOf(queued.id);
    expect(runningAfter).toEqual({ ...running, endsAt: running!.endsAt + 7 * DAY_MS });
    expect(nextAfter).toEqual({
      ...next,
      startsAt: next!.startsAt + 7 * DAY_MS,
      endsAt: next!.endsAt + 7 * DAY_MS,
    });
    expect(nextAfter!.startsAt).toBe(runningAfter!.endsAt);
    // The customer sees the same dates.
    const stat = (await queued.api.get('/mutenet/user/package/stat', { token: queued.token })).body.data;
    expect(stat.map((pkg: { startAt: number; endAt: number }) => [pkg.startAt, pkg.endAt])).toEqual(
      [runningAfter!, nextAfter!].map((pkg) => [Math.floor(pkg.startsAt / 1000), Math.floor(pkg.endsAt / 1000)]),
    );

    const text = await inProcess('user', 'add-days', queued.email, '--days', '1');
    expect(text.stdout).toMatch(new RegExp(`^${queued.email}: 1 day added\\n`));
    expectFailure(
      await inProcess('user', 'add-days', idle.email, '--days', '7'),
      1,
      new RegExp(`^admin: ${idle.email} has no running or queued package to extend$`, 'm'),
    );
    expect(await app.app.subscriptions.packagesOf(idle.id)).toEqual([]);
  });

  // The servers rebuild the user list nodes pull when the version in their shared store moves.
  it.skipIf(!REDIS_URL)(
    'tells the servers through Redis that the users nodes serve changed',
    { timeout: 60_000 },
    async () => {
      const redis = connectRedis(REDIS_URL!, REDIS_KEY_PREFIX);
      await once(redis, 'ready');
      const store = new RedisStore(redis);
      const version = async () => Number((await store.get(USERS_VERSION_KEY)) ?? 0);
      const shared = (...args: string[]) => adminInProcess(db.url, args, { REDIS_URL: REDIS_URL! });
      try {
        for (const args of [
          ['user', 'ban', queued.email],
          ['user', 'unban', queued.email],
          ['user', 'add-days', queued.email, '--days', '1'],
          ['user', 'add-traffic', queued.email, '--gb', '1'],
        ]) {
          const before = await version();
          expect(await shared(...args)).toMatchObject({ status: 0, stderr: '' });
          expect(await version(), args.join(' ')).toBeGreaterThan(before);
        }
        // A look changes nothing.
        const before = await version();
        expect((await shared('user', 'show', queued.email)).status).toBe(0);
        expect(await version()).toBe(before);
      } finally {
        await store.delete(USERS_VERSION_KEY);
        await store.close();
      }
    },
  );

  it('raises the running package’s allowance, serving again a user who had used it up', {
    timeout: 60_000,
  }, async () => {
    const [before] = await app.app.subscriptions.packagesOf(queued.id);
    const raised = jsonOf(await inProcess('user', 'add-traffic', queued.email, '--gb', '50', '--json'));
    expect(raised.packages[0]).toMatchObject({ state: 'running', trafficTotal: before!.trafficTotal + 50 * GIB });
    // Only the running package: the queued one keeps its allowance.
    expect(raised.packages[1].trafficTotal).toBe(100 * GIB);

    const customer = await customerWithPackage(app, `used-up.${database}@example.com`, catalog.monthly);
    await app.app.subscriptions.addTraffic([{ userId: customer.id, upload: 150 * GIB, download: 50 * GIB }]);
    expect(await usableIds()).not.toContain(customer.id);
    const text = await inProcess('user', 'add-traffic', customer.email, '--gb', '0.5');
    expect(text).toMatchObject({ status: 0, stderr: '' });
    expect(text.stdout).toMatch(new RegExp(`^${customer.email}: 0.5 GB added to the running package\\n`));
    expect(await usableIds()).toContain(customer.id);
    const [running] = await app.app.subscriptions.stat(customer.id, 'en');
    expect(running!.trafficTotal).toBe(200 * GIB + 0.5 * GIB);

    expectFailure(
      await inProcess('user', 'add-traffic', idle.email, '--gb', '5'),
      1,
      new RegExp(`^admin: ${idle.email} has no running package$`, 'm'),
    );
  });
});
