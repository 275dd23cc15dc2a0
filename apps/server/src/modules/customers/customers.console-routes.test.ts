import { randomUUID } from 'node:crypto';
import { ERRORS } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIB } from '../../lib/units.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { httpClient } from '../../test/http-client.js';
import { operatorSession } from '../../test/operators.js';
import { addNodes, agent, type Customer, customerWithPackage } from '../../test/subscription.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { DAY_MS } from '../subscription/subscription.service.js';

type Owner = Awaited<ReturnType<typeof operatorSession>>;

describe.each(DATABASES)('the console’s customers on %s', (database) => {
  let app: TestApp;
  let catalog: SeededCatalog;
  let owner: Owner;
  /** A running durational package, then a traffic one queued after it; signed in once. */
  let running: Customer;
  /** No package at all. */
  let idle: Customer;

  /** The newest audit entry of an action on a customer, as an owner reads it. */
  const audited = async (action: string, customerId: number) => {
    const { body } = await owner.client.get(`/api/audit?action=${action}&targetType=customer&targetId=${customerId}`);
    expect(body.code).toBe(0);
    return body.data.entries[0];
  };
  const page = async (id: number) => (await owner.client.get(`/api/customers/${id}`)).body;
  /** The session check: code 0 while the token is live, HTTP 401 once it is revoked. */
  const sessionStatus = async (customer: Customer) =>
    (await httpClient(app.url).post('/mutenet/login', { token: customer.token })).status;

  beforeAll(async () => {
    app = await startTestApp({ database });
    catalog = await seedCatalog(app);
    running = await customerWithPackage(app, `running.${database}@example.com`, catalog.monthly);
    await running.buy(catalog.traffic30);
    idle = await customerWithPackage(app, `idle.${database}@example.com`, null);
    owner = await operatorSession(app, `owner.${database}@example.com`, 'owner');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('searches by part of the email or the name, or by id, newest first, a page at a time', async () => {
    // Customers the search tells apart by name, written as sign-up writes them.
    const names = ['Ana Paging', 'Bo Paging', 'Cy Paging', 'Di Paging', 'Ed Paging'];
    const ids: number[] = [];
    for (const [index, name] of names.entries()) {
      const row = await app.app.db
        .insertInto('users')
        .values({
          email: `page${index}.${database}@example.net`,
          name,
          password_hash: 'x',
          invite_code: null,
          uuid: randomUUID(),
          created_at: app.clock.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const newestFirst = [...ids].reverse();

    const first = (await owner.client.get('/api/customers?search=PAGING&limit=2')).body;
    expect(first).toMatchObject({ code: 0 });
    expect(first.data.customers.map((customer: { id: number }) => customer.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.data.customers[0]).toEqual({
      id: ids[4],
      email: `page4.${database}@example.net`,
      name: 'Ed Paging',
      banned: false,
      createdAt: expect.any(Number),
    });
    const second = (await owner.client.get(`/api/customers?search=paging&limit=2&cursor=${first.data.next}`)).body.data;
    expect(second.customers.map((customer: { id: number }) => customer.id)).toEqual(newestFirst.slice(2, 4));
    const third = (await owner.client.get(`/api/customers?search=paging&limit=2&cursor=${second.next}`)).body.data;
    expect(third).toEqual({ customers: [expect.objectContaining({ id: ids[0] })], next: null });

    const found = async (query: string) =>
      (await owner.client.get(`/api/customers?${query}`)).body.data.customers.map((c: { id: number }) => c.id);
    // Part of the email, any case; % and _ are the characters themselves.
    expect(await found(`search=RUNNING.${database}`)).toEqual([running.id]);
    expect(await found('search=%25')).toEqual([]);
    expect(await found(`search=page_.${database}`)).toEqual([]);
    // The id itself, and the emails that contain it as text.
    expect(await found(`search=${idle.id}`)).toContain(idle.id);
    expect(await found('search=987654321')).toEqual([]);
    expect(await found(`search=${encodeURIComponent(' di paging ')}`)).toEqual([ids[3]]);
    // Everyone, newest first.
    expect((await found('limit=200')).slice(0, 2)).toEqual(newestFirst.slice(0, 2));
    expect(await found('banned=true')).toEqual([]);
  });

  it('shows a customer’s page: account, packages, orders, sessions and the subscription link', async () => {
    const { code, data } = await page(running.id);
    expect(code).toBe(0);
    expect(data.account).toEqual({
      id: running.id,
      email: running.email,
      name: 'Test User',
      banned: false,
      createdAt: expect.any(Number),
    });
    expect(data.packages).toEqual([
      expect.objectContaining({
        planNames: { en: 'Monthly', 'pt-BR': 'Monthly (pt)', 'zh-Hans': 'Monthly (zh)' },
        group: 'durational',
        state: 'running',
        trafficUsed: 0,
        trafficTotal: 200 * GIB,
      }),
      expect.objectContaining({
        planNames: expect.objectContaining({ en: 'Traffic 100' }),
        group: 'traffic',
        state: 'queued',
        startsAt: data.packages[0].endsAt,
        trafficTotal: 100 * GIB,
      }),
    ]);
    expect(data.orders).toEqual([
      {
        no: expect.any(String),
        status: 'success',
        amount: 4.99,
        currency: 'USD',
        gateway: 'sandbox',
        createdAt: expect.any(Number),
      },
      {
        no: expect.any(String),
        status: 'success',
        amount: 5.99,
        currency: 'USD',
        gateway: 'sandbox',
        createdAt: expect.any(Number),
      },
    ]);
    // Never a token or its hash.
    expect(data.sessions).toEqual([
      { id: expect.any(Number), createdAt: expect.any(Number), expiresAt: expect.any(Number) },
    ]);
    const link = (await running.api.get('/mutenet/user/subscribe/url', { token: running.token })).text;
    expect(data.subscriptionUrl).toBe(link);

    const empty = (await page(idle.id)).data;
    expect(empty).toMatchObject({ packages: [], orders: [], sessions: [expect.any(Object)] });
  });

  it('adds days to the running package and moves the queued one after it, audited', async () => {
    const [before, queuedBefore] = (await page(running.id)).data.packages;
    const answer = await owner.client.post(`/api/customers/${running.id}/add-days`, { days: 7 });
    expect(answer.body.code).toBe(0);
    const [after, queuedAfter] = answer.body.data.packages;
    expect(after.endsAt).toBe(before.endsAt + 7 * DAY_MS);
    expect(queuedAfter.startsAt).toBe(queuedBefore.startsAt + 7 * DAY_MS);
    expect(await audited('customer.addDays', running.id)).toMatchObject({
      actor: owner.email,
      targetId: String(running.id),
      before: { packageId: before.id, endsAt: before.endsAt },
      after: { packageId: before.id, endsAt: after.endsAt },
    });
  });

  it('adds traffic to the running package (GB, as the command line), audited', async () => {
    const [before, queued] = (await page(running.id)).data.packages;
    const answer = await owner.client.post(`/api/customers/${running.id}/add-traffic`, { gb: 0.5 });
    expect(answer.body.code).toBe(0);
    const [after, queuedAfter] = answer.body.data.packages;
    expect(after.trafficTotal).toBe(before.trafficTotal + 0.5 * GIB);
    expect(queuedAfter.trafficTotal).toBe(queued.trafficTotal);
    expect(await audited('customer.addTraffic', running.id)).toMatchObject({
      before: { packageId: before.id, trafficTotal: before.trafficTotal },
      after: { packageId: before.id, trafficTotal: after.trafficTotal },
    });
  });

  it('resets the subscription: a new link, the old one dead, the audit naming no token', async () => {
    const old = (await page(running.id)).data.subscriptionUrl as string;
    const answer = await owner.client.post(`/api/customers/${running.id}/reset-subscription`);
    expect(answer.body.code).toBe(0);
    const fresh = answer.body.data.subscriptionUrl as string;
    expect(fresh).not.toBe(old);
    expect((await httpClient(app.url).get(new URL(old).pathname)).status).toBe(404);
    expect((await httpClient(app.url).get(new URL(fresh).pathname)).status).toBe(200);
    const entry = await audited('customer.resetSubscription', running.id);
    expect(entry).toMatchObject({ before: null, after: { subscriptionReset: true } });
    const tokenOf = (url: string) => url.split('/').at(-1)!;
    expect(JSON.stringify(entry)).not.toContain(tokenOf(old));
    expect(JSON.stringify(entry)).not.toContain(tokenOf(fresh));
  });

  it('revokes one session of the customer, audited; another customer’s session is not found', async () => {
    const customer = await customerWithPackage(app, `sessions.${database}@example.com`, null);
    const [session] = (await page(customer.id)).data.sessions;
    const [idleSession] = (await page(idle.id)).data.sessions;
    const wrong = await owner.client.delete(`/api/customers/${customer.id}/sessions/${idleSession.id}`);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toMatchObject({ code: ERRORS.NOT_FOUND.code, data: null });
    expect(await sessionStatus(idle)).toBe(200);

    const answer = await owner.client.delete(`/api/customers/${customer.id}/sessions/${session.id}`);
    expect(answer.body).toMatchObject({ code: 0, data: { sessions: [] } });
    expect(await sessionStatus(customer)).toBe(401);
    expect(await audited('customer.revokeSession', customer.id)).toMatchObject({
      before: { session: session.id },
      after: null,
    });
  });

  it('bans a customer: sessions revoked, and a node’s next pull no longer has them; unbans, both audited', async () => {
    const customer = await customerWithPackage(app, `banned.${database}@example.com`, catalog.monthly);
    const [node] = await addNodes(app);
    const pulled = async () => (await agent(app, node!).users()).body.users.map((user: { id: number }) => user.id);
    expect(await pulled()).toContain(customer.id);

    const banned = await owner.client.post(`/api/customers/${customer.id}/ban`);
    expect(banned.body).toMatchObject({ code: 0, data: { account: { banned: true }, sessions: [] } });
    expect(await pulled()).not.toContain(customer.id);
    expect(await sessionStatus(customer)).toBe(401);
    expect(await audited('customer.ban', customer.id)).toMatchObject({
      before: { banned: false, sessions: 1 },
      after: { banned: true, sessions: 0 },
    });
    const list = (await owner.client.get('/api/customers?banned=true')).body.data;
    expect(list).toEqual({ customers: [expect.objectContaining({ id: customer.id, banned: true })], next: null });

    const unbanned = await owner.client.post(`/api/customers/${customer.id}/unban`);
    expect(unbanned.body).toMatchObject({ code: 0, data: { account: { banned: false } } });
    expect(await pulled()).toContain(customer.id);
    expect(await audited('customer.unban', customer.id)).toMatchObject({
      before: { banned: true },
      after: { banned: false },
    });
  });

  it('refuses bad input with the envelope, never a 500', async () => {
    const unknown = 2_000_000_000;
    for (const [method, path] of [
      ['GET', `/api/customers/${unknown}`],
      ['POST', `/api/customers/${unknown}/ban`],
      ['POST', `/api/customers/${unknown}/unban`],
      ['POST', `/api/customers/${unknown}/reset-subscription`],
      ['DELETE', `/api/customers/${unknown}/sessions/1`],
    ] as const) {
      const answer = await owner.client.call(method, path, method === 'POST' ? {} : undefined);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toMatchObject({ code: ERRORS.NOT_FOUND.code, data: null });
    }
    const unknownDays = await owner.client.post(`/api/customers/${unknown}/add-days`, { days: 1 });
    expect(unknownDays.body.code).toBe(ERRORS.NOT_FOUND.code);

    for (const days of [0, -1, 1.5, 36_501, '7', null]) {
      const answer = await owner.client.post(`/api/customers/${running.id}/add-days`, { days });
      expect(answer.status, String(days)).toBe(400);
      expect(answer.body.code, String(days)).toBe(ERRORS.BAD_REQUEST.code);
    }
    for (const gb of [0, -1, 0.0001, 1_000_001, 'x', null]) {
      const answer = await owner.client.post(`/api/customers/${running.id}/add-traffic`, { gb });
      expect(answer.status, String(gb)).toBe(400);
    }
    for (const query of [
      'limit=0',
      'limit=201',
      'cursor=-1',
      'cursor=x',
      'banned=maybe',
      `search=${'a'.repeat(255)}`,
    ]) {
      const answer = await owner.client.get(`/api/customers?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.code, query).toBe(ERRORS.BAD_REQUEST.code);
    }
    for (const path of ['/api/customers/abc', '/api/customers/0', '/api/customers/1.5', '/api/customers/99999999999']) {
      expect((await owner.client.get(path)).status, path).toBe(400);
    }

    // Nothing runs: told in the operator's language, and nothing recorded.
    const refused = await owner.client.post(
      `/api/customers/${idle.id}/add-days`,
      { days: 3 },
      { 'accept-language': 'pt-BR' },
    );
    expect(refused.body).toEqual({
      code: ERRORS.CUSTOMER_NO_RUNNING_PACKAGE.code,
      msg: 'Este cliente não tem pacote em execução',
      data: null,
    });
    const noTraffic = await owner.client.post(`/api/customers/${idle.id}/add-traffic`, { gb: 1 });
    expect(noTraffic.body.code).toBe(ERRORS.CUSTOMER_NO_RUNNING_PACKAGE.code);
    expect(await audited('customer.addDays', idle.id)).toBeUndefined();
  });
});
