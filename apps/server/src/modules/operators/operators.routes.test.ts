import { ERRORS } from '@mutenet/contract';
import { parseSetCookie } from 'cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUp } from '../../test/accounts.js';
import { adminDatabase, adminInProcess, jsonOf } from '../../test/admin-cli.js';
import { type CallResult, httpClient } from '../../test/http-client.js';
import { type Console, consoleOf, operatorSession, totpOf } from '../../test/operators.js';
import { DATABASES, REDIS_URL, startTestApp, type TestApp } from '../../test/test-app.js';
import { recordSecret } from '../../test/test-log.js';
import type { AuditHook, RecordedChange } from '../audit/audit.service.js';
import { OPERATOR_FAILURE_WINDOW_MS, OPERATOR_FAILURES_PER_ACCOUNT, SESSION_IDLE_MS } from './operators.service.js';

const NEW_PASSWORD = 'Operator123';
const EVIL_ORIGIN = 'https://evil.example';

function expectError(result: CallResult, key: keyof typeof ERRORS) {
  expect({ status: result.status, code: result.body.code }).toEqual({
    status: ERRORS[key].status,
    code: ERRORS[key].code,
  });
}

describe.each(DATABASES)('operators’ sign-in and sessions on %s', (database) => {
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  let app: TestApp;
  let serial = 0;

  /** `admin operator add` on the command line: the email and its one-time password. */
  async function addOperator(role: 'owner' | 'manager' | 'support') {
    const email = `${role}${++serial}.${database}@example.com`;
    const added = jsonOf(await adminInProcess(db.url, ['operator', 'add', email, '--role', role, '--json']));
    recordSecret('password', added.oneTimePassword);
    return { email, id: added.id as number, password: added.oneTimePassword as string };
  }

  /** A code of a time step no sign-in took yet: each test moves the clock past the steps taken before. */
  function freshCode(secret: string) {
    app.clock.advance(30_000);
    return totpOf(secret).generate({ timestamp: app.clock.now() });
  }

  async function changePassword(client: Console, current: string, next = NEW_PASSWORD) {
    const result = await client.post('/api/session/password', { current, next });
    recordSecret('password', next);
    return result;
  }

  /** Enrols an authenticator in the client's session; its secret. */
  async function enrol(client: Console): Promise<string> {
    const begun = await client.post('/api/session/totp');
    expect(begun.body.code).toBe(0);
    const { secret } = begun.body.data;
    recordSecret('password', secret);
    const confirmed = await client.post('/api/session/totp/confirm', { code: freshCode(secret) });
    expect(confirmed.body).toMatchObject({ code: 0, data: { next: 'ready' } });
    return secret;
  }

  /** An operator of the role with a full session: password changed, and an authenticator for an owner. */
  async function ready(role: 'owner' | 'manager' | 'support') {
    const operator = await addOperator(role);
    const client = consoleOf(app);
    expect((await client.signIn(operator.email, operator.password)).body.code).toBe(0);
    expect((await changePassword(client, operator.password)).body.code).toBe(0);
    const secret = role === 'owner' ? await enrol(client) : null;
    return { ...operator, client, secret, password: NEW_PASSWORD };
  }

  beforeAll(async () => {
    db = await adminDatabase(database);
    app = await startTestApp({
      env: { DATABASE_URL: db.url },
      // A route of another module, as it would guard itself: it answers who the guard let in.
      beforeListen: (fastify) => {
        fastify.get('/admin/api/test/catalog', { onRequest: fastify.operatorCan('catalog.read') }, async (request) => ({
          operator: request.operator,
        }));
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('walks the first owner from the one-time password to a full session', { timeout: 60_000 }, async () => {
    const owner = await addOperator('owner');
    const client = consoleOf(app);

    const signedIn = await client.signIn(owner.email.toUpperCase(), owner.password);
    expect(signedIn.body).toMatchObject({ code: 0, data: { next: 'change-password' } });
    const cookie = parseSetCookie(client.setCookie ?? '');
    expect(cookie).toMatchObject({ name: 'mutenet_admin', httpOnly: true, sameSite: 'strict', path: '/admin' });
    expect(cookie.secure).toBeFalsy();
    expect(signedIn.headers.get('cache-control')).toBe('no-store');

    // Limited: who am I answers, the console's other calls do not.
    expect((await client.get('/api/session')).body).toMatchObject({
      code: 0,
      data: {
        email: owner.email,
        role: 'owner',
        totpEnrolled: false,
        mustChangePassword: true,
        secondFactorPending: true,
        permissions: [],
      },
    });
    expectError(await client.get('/api/operators'), 'FORBIDDEN');

    expectError(await changePassword(client, 'Wrong1234'), 'OLD_PASSWORD_WRONG');
    expectError(
      await client.post('/api/session/password', { current: owner.password, next: 'short' }),
      'PASSWORD_FORMAT',
    );
    expect((await changePassword(client, owner.password)).body).toMatchObject({
      code: 0,
      data: { next: 'enrol-second-factor' },
    });
    expectError(await client.get('/api/operators'), 'FORBIDDEN');

    const begun = await client.post('/api/session/totp');
    const { secret, uri } = begun.body.data;
    recordSecret('password', secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Mutenet:/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    const valid = freshCode(secret);
    const wrong = String((Number(valid) + 500_000) % 1_000_000).padStart(6, '0');
    expectError(await client.post('/api/session/totp/confirm', { code: wrong }), 'TOTP_CODE_INVALID');
    expectError(await client.post('/api/session/totp/confirm', { code: 'abc' }), 'TOTP_CODE_INVALID');
    expect((await client.post('/api/session/totp/confirm', { code: valid })).body).toMatchObject({
      code: 0,
      data: { next: 'ready' },
    });
    expectError(await client.post('/api/session/totp'), 'TOTP_ALREADY_ENROLLED');

    const session = (await client.get('/api/session')).body.data;
    expect(session).toMatchObject({ totpEnrolled: true, mustChangePassword: false, secondFactorPending: false });
    expect(session.permissions).toContain('operators.manage');
    expect(session.permissions).toContain('orders.refund');
    expect((await client.get('/api/operators')).body.code).toBe(0);

    // Signing out revokes the session itself, not only the cookie.
    const revoked = client.cookie;
    expect((await client.delete('/api/session')).body.code).toBe(0);
    expect(parseSetCookie(client.setCookie ?? '')).toMatchObject({ value: '', maxAge: 0 });
    client.cookie = revoked;
    expectError(await client.get('/api/session'), 'UNAUTHORIZED');

    // Enrolled: the code is required, and each code is taken once (the enrolment took this step already).
    expectError(await client.signIn(owner.email, NEW_PASSWORD), 'SECOND_FACTOR_REQUIRED');
    const sameStep = totpOf(secret).generate({ timestamp: app.clock.now() });
    expectError(await client.signIn(owner.email, NEW_PASSWORD, sameStep), 'LOGIN_FAILED');
    const code = freshCode(secret);
    expect((await client.signIn(owner.email, NEW_PASSWORD, code)).body).toMatchObject({
      code: 0,
      data: { next: 'ready' },
    });
    expectError(await consoleOf(app).signIn(owner.email, NEW_PASSWORD, code), 'LOGIN_FAILED');
    expectError(await consoleOf(app).signIn(owner.email, 'Wrong1234', freshCode(secret)), 'LOGIN_FAILED');
    expect((await client.get('/api/session')).body.data.permissions).toContain('operators.manage');

    // A lost phone: the command line removes the authenticator, and the owner must enrol a new one.
    const reset = jsonOf(await adminInProcess(db.url, ['operator', 'reset-totp', owner.email, '--json']));
    expect(reset).toMatchObject({ email: owner.email, totpEnrolled: false });
    expectError(await client.get('/api/session'), 'UNAUTHORIZED');
    expect((await client.signIn(owner.email, NEW_PASSWORD)).body).toMatchObject({
      code: 0,
      data: { next: 'enrol-second-factor' },
    });
    expectError(await client.get('/api/operators'), 'FORBIDDEN');
    await enrol(client);
    expect((await client.get('/api/operators')).body.code).toBe(0);
  });

  it('answers a wrong password and an unknown email alike, and locks an email after repeated failures', {
    timeout: 60_000,
  }, async () => {
    const manager = await addOperator('manager');
    const wrong = await consoleOf(app).signIn(manager.email, 'Wrong1234');
    const unknown = await consoleOf(app).signIn(`nobody${database}@example.com`, 'Wrong1234');
    expectError(wrong, 'LOGIN_FAILED');
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.get('set-cookie')).toBeNull();

    // From a new address each time: the lock is the account's, not the address's.
    for (let failure = 2; failure <= OPERATOR_FAILURES_PER_ACCOUNT; failure++) {
      expectError(await consoleOf(app).signIn(manager.email, 'Wrong1234'), 'LOGIN_FAILED');
    }
    const locked = await consoleOf(app).signIn(manager.email, manager.password);
    expectError(locked, 'TOO_MANY_REQUESTS');
    expect(locked.headers.get('retry-after')).toBe(String(OPERATOR_FAILURE_WINDOW_MS / 1000));

    app.clock.advance(OPERATOR_FAILURE_WINDOW_MS);
    expect((await consoleOf(app).signIn(manager.email, manager.password)).body).toMatchObject({
      code: 0,
      data: { next: 'change-password' },
    });
  });

  it('limits sign-in attempts per address', { timeout: 60_000 }, async () => {
    const client = consoleOf(app);
    const answers: number[] = [];
    for (let attempt = 0; attempt < 21; attempt++) {
      answers.push((await client.signIn(`probe${attempt}.${database}@example.com`, 'Wrong1234')).status);
    }
    expect(answers.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(answers[20]).toBe(429);
  });

  it('refuses a disabled operator and ends their sessions; enabling lets them back', { timeout: 60_000 }, async () => {
    const support = await ready('support');
    expect((await support.client.get('/api/session')).body.data).toMatchObject({
      role: 'support',
      secondFactorPending: false,
      permissions: expect.arrayContaining(['customers.read', 'customers.ban']),
    });
    jsonOf(await adminInProcess(db.url, ['operator', 'disable', support.email, '--json']));
    expectError(await support.client.get('/api/session'), 'UNAUTHORIZED');
    expectError(await consoleOf(app).signIn(support.email, support.password), 'ACCOUNT_DISABLED');
    jsonOf(await adminInProcess(db.url, ['operator', 'enable', support.email, '--json']));
    expect((await consoleOf(app).signIn(support.email, support.password)).body).toMatchObject({
      code: 0,
      data: { next: 'ready' },
    });
  });

  it('ends a session idle for 30 minutes, and any session after 12 hours', { timeout: 60_000 }, async () => {
    const manager = await ready('manager');
    // Each use moves the idle expiry on: two spans of 29 minutes with a call between them.
    app.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await manager.client.get('/api/session')).status).toBe(200);
    app.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await manager.client.get('/api/session')).status).toBe(200);
    app.clock.advance(SESSION_IDLE_MS + 1);
    expectError(await manager.client.get('/api/session'), 'UNAUTHORIZED');

    const busy = consoleOf(app);
    expect((await busy.signIn(manager.email, manager.password)).body.code).toBe(0);
    for (let elapsed = 0; elapsed < 12 * 3600_000 - 25 * 60_000; elapsed += 25 * 60_000) {
      app.clock.advance(25 * 60_000);
      expect((await busy.get('/api/session')).status).toBe(200);
    }
    app.clock.advance(25 * 60_000);
    expectError(await busy.get('/api/session'), 'UNAUTHORIZED');
  });

  it('revokes the other sessions when the password changes, and an owner’s reset revokes them all', {
    timeout: 60_000,
  }, async () => {
    const manager = await ready('manager');
    const other = consoleOf(app);
    expect((await other.signIn(manager.email, manager.password)).body.code).toBe(0);
    expect((await changePassword(manager.client, manager.password, 'Another456')).body).toMatchObject({
      code: 0,
      data: { next: 'ready' },
    });
    expect((await manager.client.get('/api/session')).status).toBe(200);
    expectError(await other.get('/api/session'), 'UNAUTHORIZED');
    expectError(await consoleOf(app).signIn(manager.email, manager.password), 'LOGIN_FAILED');

    const reset = jsonOf(await adminInProcess(db.url, ['operator', 'reset-password', manager.email, '--json']));
    recordSecret('password', reset.oneTimePassword);
    expect(reset).toMatchObject({ email: manager.email, mustChangePassword: true });
    expectError(await manager.client.get('/api/session'), 'UNAUTHORIZED');
    expectError(await consoleOf(app).signIn(manager.email, 'Another456'), 'LOGIN_FAILED');
    expect((await consoleOf(app).signIn(manager.email, reset.oneTimePassword)).body).toMatchObject({
      code: 0,
      data: { next: 'change-password' },
    });
  });

  it('sets a Secure cookie over HTTPS', async () => {
    const manager = await addOperator('manager');
    const client = consoleOf(app);
    await client.call(
      'POST',
      '/api/session',
      { email: manager.email, password: manager.password },
      {
        'x-forwarded-proto': 'https',
      },
    );
    expect(parseSetCookie(client.setCookie ?? '')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'strict' });
  });

  it('refuses a cookie request from another origin; an API token needs none', { timeout: 60_000 }, async () => {
    const owner = await ready('owner');
    const body = { email: `csrf${database}@example.com`, role: 'support' };
    expectError(await owner.client.post('/api/operators', body, { origin: EVIL_ORIGIN }), 'FORBIDDEN');
    expectError(await consoleOf(app).signIn(owner.email, owner.password, 'x'), 'LOGIN_FAILED');
    const elsewhere = consoleOf(app);
    const signIn = { email: owner.email, password: owner.password, code: freshCode(owner.secret ?? '') };
    expectError(await elsewhere.call('POST', '/api/session', signIn, { origin: EVIL_ORIGIN }), 'FORBIDDEN');
    expect(elsewhere.setCookie).toBeNull();
    // Reads need no origin; a browser sends none on a same-origin GET.
    expect((await owner.client.get('/api/operators', { origin: EVIL_ORIGIN })).status).toBe(200);

    const token = await app.app.operators.createApiToken({ name: 'ci', role: 'owner', createdBy: owner.id });
    recordSecret('session token', token.token);
    const script = httpClient(app.url);
    const added = await script.post('/admin/api/operators', {
      json: body,
      headers: { authorization: `Bearer ${token.token}` },
    });
    expect(added.body).toMatchObject({ code: 0, data: { operator: { email: body.email, role: 'support' } } });
    recordSecret('password', added.body.data.password);
    const probe = await script.get('/admin/api/test/catalog', { headers: { authorization: `Bearer ${token.token}` } });
    expect(probe.body).toEqual({ operator: { id: owner.id, email: owner.email, role: 'owner', tokenId: token.id } });

    const support = await app.app.operators.createApiToken({ name: 'ro', role: 'support', createdBy: owner.id });
    recordSecret('session token', support.token);
    const refused = await script.get('/admin/api/operators', { headers: { authorization: `Bearer ${support.token}` } });
    expectError(refused, 'FORBIDDEN');

    expect(await app.app.operators.revokeApiToken(token.id)).toBe(true);
    const revoked = await script.get('/admin/api/operators', { headers: { authorization: `Bearer ${token.token}` } });
    expectError(revoked, 'UNAUTHORIZED');
  });

  it('guards routes: 401 without a session or with a customer’s, 403 for a role without the permission', {
    timeout: 60_000,
  }, async () => {
    const anonymous = httpClient(app.url);
    expectError(await anonymous.get('/admin/api/test/catalog'), 'UNAUTHORIZED');
    expectError(await anonymous.get('/admin/api/session'), 'UNAUTHORIZED');
    expectError(
      await anonymous.get('/admin/api/test/catalog', { headers: { cookie: 'mutenet_admin=forged' } }),
      'UNAUTHORIZED',
    );

    const customer = httpClient(app.url);
    const token = await signUp(app, customer, `customer.${database}@example.com`, PASSWORD);
    expectError(await customer.get('/admin/api/test/catalog', { token }), 'UNAUTHORIZED');
    expectError(await customer.get('/admin/api/test/catalog', { token: `Bearer ${token}` }), 'UNAUTHORIZED');
    expectError(
      await customer.get('/admin/api/operators', { headers: { cookie: `mutenet_admin=${token}` } }),
      'UNAUTHORIZED',
    );

    const support = await ready('support');
    expectError(await support.client.get('/api/test/catalog'), 'FORBIDDEN');
    expectError(await support.client.get('/api/operators'), 'FORBIDDEN');
    const manager = await ready('manager');
    expect((await manager.client.get('/api/test/catalog')).body).toEqual({
      operator: { id: manager.id, email: manager.email, role: 'manager', tokenId: null },
    });
    expectError(await manager.client.get('/api/operators'), 'FORBIDDEN');
    expectError(await manager.client.post('/api/operators', { email: 'x@example.com', role: 'owner' }), 'FORBIDDEN');
    expectError(await manager.client.put(`/api/operators/${manager.id}`, { role: 'owner' }), 'FORBIDDEN');
    expectError(await manager.client.post(`/api/operators/${manager.id}/reset-password`), 'FORBIDDEN');
  });
});

describe.each(DATABASES)('owners’ management of operators on %s', (database) => {
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  let app: TestApp;

  beforeAll(async () => {
    db = await adminDatabase(database);
    app = await startTestApp({ env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('adds, changes and resets operators, and never leaves no active owner', { timeout: 60_000 }, async () => {
    const email = `first.${database}@example.com`;
    const added = jsonOf(await adminInProcess(db.url, ['operator', 'add', email, '--role', 'owner', '--json']));
    recordSecret('password', added.oneTimePassword);
    const owner = consoleOf(app);
    await owner.signIn(email, added.oneTimePassword);
    await owner.post('/api/session/password', { current: added.oneTimePassword, next: NEW_PASSWORD });
    recordSecret('password', NEW_PASSWORD);
    const begun = (await owner.post('/api/session/totp')).body.data;
    recordSecret('password', begun.secret);
    app.clock.advance(30_000);
    const code = totpOf(begun.secret).generate({ timestamp: app.clock.now() });
    expect((await owner.post('/api/session/totp/confirm', { code })).body.data.next).toBe('ready');

    // The only owner can be neither demoted nor disabled, by the console or on the command line.
    expectError(await owner.put(`/api/operators/${added.id}`, { role: 'manager' }), 'LAST_OWNER');
    expectError(await owner.put(`/api/operators/${added.id}`, { disabled: true }), 'LAST_OWNER');
    const refused = await adminInProcess(db.url, ['operator', 'disable', email]);
    expect(refused).toMatchObject({ status: 1, stdout: '' });
    expect(refused.stderr).toMatch(/last active owner/);

    const made = await owner.post('/api/operators', { email: `Second.${database}@example.com`, role: 'manager' });
    expect(made.body).toMatchObject({
      code: 0,
      data: {
        operator: { email: `second.${database}@example.com`, role: 'manager', mustChangePassword: true },
        password: expect.any(String),
      },
    });
    recordSecret('password', made.body.data.password);
    const second = made.body.data.operator;
    expectError(await owner.post('/api/operators', { email: second.email, role: 'support' }), 'EMAIL_TAKEN');
    expectError(await owner.post('/api/operators', { email: 'bad', role: 'support' }), 'EMAIL_FORMAT');
    expect((await owner.post('/api/operators', { email: 'a@example.com', role: 'root' })).status).toBe(400);

    // Promoted, the second owner lets the first step down.
    expect((await owner.put(`/api/operators/${second.id}`, { role: 'owner' })).body.data.role).toBe('owner');
    expect((await owner.put(`/api/operators/${added.id}`, { role: 'manager' })).body.data).toMatchObject({
      id: added.id,
      role: 'manager',
    });
    // Now a manager: the operators' routes are closed to this session.
    expectError(await owner.get('/api/operators'), 'FORBIDDEN');

    const reset = await app.app.operators.resetPassword(second.id);
    recordSecret('password', reset.password);
    expect(reset.password).not.toBe(made.body.data.password);
    expect(reset.operator.mustChangePassword).toBe(true);

    expectError(await httpClient(app.url).call('PUT', '/admin/api/operators/abc', { json: {} }), 'UNAUTHORIZED');
    const list = await app.app.operators.list();
    expect(list.map((operator) => [operator.email, operator.role])).toEqual([
      [email, 'manager'],
      [second.email, 'owner'],
    ]);
  });

  it('hands each change to the audit hook in its own transaction, never a password', { timeout: 60_000 }, async () => {
    const { operators } = app.app;
    const changes: RecordedChange[] = [];
    const record: AuditHook = async (executor, change) => {
      // In the change's transaction: the row it wrote is there to read.
      expect(
        await executor.selectFrom('operators').select('id').where('id', '=', Number(change.target.id)).execute(),
      ).toHaveLength(1);
      changes.push(change);
    };
    const added = await operators.add(`Audited.${database}@example.com`, 'support', record);
    recordSecret('password', added.password);
    const id = added.operator.id;
    await operators.update(id, { role: 'manager' }, record);
    const reset = await operators.resetPassword(id, record);
    recordSecret('password', reset.password);
    expect(changes).toEqual([
      {
        action: 'operator.add',
        target: { type: 'operator', id },
        before: null,
        after: { email: `audited.${database}@example.com`, role: 'support' },
      },
      {
        action: 'operator.update',
        target: { type: 'operator', id },
        before: { role: 'support' },
        after: { role: 'manager' },
      },
      {
        action: 'operator.resetPassword',
        target: { type: 'operator', id },
        before: { mustChangePassword: true },
        after: { mustChangePassword: true },
      },
    ]);
    expect(JSON.stringify(changes)).not.toContain(reset.password);

    // A record that fails takes its change with it.
    const failing: AuditHook = async () => {
      throw new Error('audit log unavailable');
    };
    await expect(operators.add(`unrecorded.${database}@example.com`, 'support', failing)).rejects.toThrow();
    expect(await operators.find(`unrecorded.${database}@example.com`)).toBeUndefined();
    await expect(operators.update(id, { disabled: true }, failing)).rejects.toThrow();
    expect((await operators.find(`audited.${database}@example.com`))?.disabled).toBe(false);
  });

  it('records the console’s changes in the audit log', { timeout: 60_000 }, async () => {
    const email = `auditor.${database}@example.com`;
    const { id: ownerId, client: owner } = await operatorSession(app, email, 'owner');
    const made = await owner.post('/api/operators', { email: `logged.${database}@example.com`, role: 'support' });
    recordSecret('password', made.body.data.password);
    const id = made.body.data.operator.id;
    await owner.put(`/api/operators/${id}`, { disabled: true });
    const log = await owner.get(`/api/audit?targetType=operator&targetId=${id}`);
    expect(log.body.data.entries.map((entry: { action: string }) => entry.action)).toEqual([
      'operator.update',
      'operator.add',
    ]);
    expect(log.body.data.entries[0]).toMatchObject({
      actor: email,
      operatorId: ownerId,
      before: { disabled: false },
      after: { disabled: true },
    });
  });

  it('answers bad ids and unknown operators clearly', { timeout: 60_000 }, async () => {
    const { id, client: owner } = await operatorSession(app, `ids.${database}@example.com`, 'owner');
    expect((await owner.put('/api/operators/abc', {})).status).toBe(400);
    expect((await owner.put('/api/operators/99999999999', {})).status).toBe(400);
    expectError(await owner.put('/api/operators/999999', { role: 'support' }), 'NOT_FOUND');
    expectError(await owner.post('/api/operators/999999/reset-password'), 'NOT_FOUND');
    expect((await owner.put(`/api/operators/${id}`, { disabled: 'yes' })).status).toBe(400);
    expectError(await consoleOf(app).signIn('', ''), 'ALL_REQUIRED');
  });
});

describe.runIf(REDIS_URL)('the per-account lock across instances', () => {
  it('holds on every instance sharing Redis', { timeout: 60_000 }, async () => {
    const db = await adminDatabase('sqlite');
    const first = await startTestApp({ env: { DATABASE_URL: db.url }, redis: true });
    const second = await startTestApp({
      env: { DATABASE_URL: db.url },
      redis: true,
      joining: { installation: first.installation },
    });
    try {
      const email = 'shared.lock@example.com';
      const added = jsonOf(await adminInProcess(db.url, ['operator', 'add', email, '--role', 'manager', '--json']));
      recordSecret('password', added.oneTimePassword);
      for (let failure = 1; failure <= OPERATOR_FAILURES_PER_ACCOUNT; failure++) {
        const instance = failure % 2 ? first : second;
        expectError(await consoleOf(instance).signIn(email, 'Wrong1234'), 'LOGIN_FAILED');
      }
      expectError(await consoleOf(first).signIn(email, added.oneTimePassword), 'TOO_MANY_REQUESTS');
      expectError(await consoleOf(second).signIn(email, added.oneTimePassword), 'TOO_MANY_REQUESTS');
    } finally {
      await second.close();
      await first.close();
      await db.drop();
    }
  });
});

describe('ADMIN_PATH', () => {
  it('moves the session API and the cookie’s path with the console', { timeout: 60_000 }, async () => {
    const db = await adminDatabase('sqlite');
    const app = await startTestApp({ env: { DATABASE_URL: db.url, ADMIN_PATH: '/console-7f3a' } });
    try {
      const email = 'moved@example.com';
      const added = jsonOf(await adminInProcess(db.url, ['operator', 'add', email, '--role', 'support', '--json']));
      recordSecret('password', added.oneTimePassword);
      const api = httpClient(app.url);
      const form = { json: { email, password: added.oneTimePassword } };
      expect((await api.post('/admin/api/session', form)).status).toBe(404);
      const signedIn = await api.post('/console-7f3a/api/session', form);
      expect(signedIn.body).toMatchObject({ code: 0, data: { next: 'change-password' } });
      const cookie = parseSetCookie(signedIn.headers.get('set-cookie') ?? '');
      recordSecret('session token', cookie.value);
      expect(cookie).toMatchObject({ name: 'mutenet_admin', path: '/console-7f3a', httpOnly: true });
      const session = await api.get('/console-7f3a/api/session', {
        headers: { cookie: `mutenet_admin=${cookie.value}` },
      });
      expect(session.body.data).toMatchObject({ email, role: 'support', mustChangePassword: true });
    } finally {
      await app.close();
      await db.drop();
    }
  });
});
