import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminDatabase, adminInProcess, jsonOf } from '../../test/admin-cli.js';
import { type CallResult, httpClient } from '../../test/http-client.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { recordSecret } from '../../test/test-log.js';

/** What an attacker sends in a field: each must end in a clear error (or a plain success), never a 500. */
const HOSTILE: unknown[] = [
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  'a\u0000b',
  'a\u0000b@example.com',
  "x'OR'1'='1@example.com",
  'Secret123\u0000',
  '\u0001\u0007\u001b[31m\u007f\r\n\t',
  '😀👍🏽🇧🇷',
  'x'.repeat(10 * 1024),
  '',
  0,
  -1,
  1e308,
  true,
  null,
  [],
  ['a', 'b'],
  { $ne: null },
];

const PASSWORD = 'Operator123';
// A stack frame, a source path or an error class name: none of them may reach a client.
const STACK_TRACE = /\bat\s+\S+\s+\(|\.[cm]?[jt]s:\d+|node_modules|[A-Z][a-z]+Error\b/;

function expectClearAnswer(result: CallResult, what: string) {
  expect(result.status, what).toBeLessThan(500);
  expect(result.body, what).toMatchObject({ code: expect.any(Number), msg: expect.any(String) });
  expect(result.text, what).not.toMatch(STACK_TRACE);
}

describe.each(DATABASES)('operators’ routes under hostile input on %s', (database) => {
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  let app: TestApp;
  let origin: string;
  let cookie: string;
  let ownerId: number;

  const call = (method: string, path: string, json: unknown, headers: Record<string, string> = {}) =>
    httpClient(app.url).call(method, `/admin${path}`, { json, headers: { origin, cookie, ...headers } });

  beforeAll(async () => {
    db = await adminDatabase(database);
    app = await startTestApp({ env: { DATABASE_URL: db.url } });
    origin = new URL(app.config.publicUrl).origin;
    const email = `hostile.${database}@example.com`;
    const added = jsonOf(await adminInProcess(db.url, ['operator', 'add', email, '--role', 'owner', '--json']));
    recordSecret('password', added.oneTimePassword);
    ownerId = added.id;
    const signedIn = await httpClient(app.url).post('/admin/api/session', {
      json: { email, password: added.oneTimePassword },
      headers: { origin },
    });
    const token = /mutenet_admin=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1] ?? '';
    recordSecret('session token', token);
    cookie = `mutenet_admin=${token}`;
    await call('POST', '/api/session/password', { current: added.oneTimePassword, next: PASSWORD });
    recordSecret('password', PASSWORD);
    const { secret } = (await call('POST', '/api/session/totp', {})).body.data;
    recordSecret('password', secret);
    app.clock.advance(30_000);
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: app.clock.now() });
    expect((await call('POST', '/api/session/totp/confirm', { code })).body.data.next).toBe('ready');
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('answers every hostile field of every body clearly', { timeout: 120_000 }, async () => {
    const bodies: Array<[method: string, path: string, valid: Record<string, unknown>]> = [
      ['POST', '/api/session', { email: 'nobody@example.com', password: 'Wrong1234', code: '123456' }],
      ['POST', '/api/session/totp/confirm', { code: '123456' }],
      ['POST', '/api/operators', { email: 'new@example.com', role: 'support' }],
      ['PUT', '/api/operators/999999', { role: 'support', disabled: false }],
    ];
    for (const [method, path, valid] of bodies) {
      for (const field of Object.keys(valid)) {
        for (const value of HOSTILE) {
          const result = await call(method, path, { ...valid, [field]: value });
          expectClearAnswer(result, `${method} ${path} ${field}=${JSON.stringify(value)?.slice(0, 40)}`);
        }
      }
      for (const body of [null, [], 'text', 42]) {
        expectClearAnswer(await call(method, path, body), `${method} ${path} body ${JSON.stringify(body)}`);
      }
    }
    // Wrong current passwords only: this session must stay usable.
    for (const value of HOSTILE) {
      const result = await call('POST', '/api/session/password', { current: value, next: 'Another123' });
      expectClearAnswer(result, `password current=${JSON.stringify(value)?.slice(0, 40)}`);
      expect(result.body.code).not.toBe(0);
    }
    for (const id of ['abc', '-1', '0', '1.5', '99999999999', '%00', "1' or '1'='1"]) {
      expectClearAnswer(await call('PUT', `/api/operators/${encodeURIComponent(id)}`, {}), `PUT id ${id}`);
      expectClearAnswer(await call('POST', `/api/operators/${encodeURIComponent(id)}/reset-password`, {}), `id ${id}`);
    }
    expect((await call('PUT', `/api/operators/${ownerId}`, {})).body).toMatchObject({
      code: 0,
      data: { id: ownerId, role: 'owner', disabled: false },
    });
  });

  it('answers forged cookies and tokens with 401', { timeout: 60_000 }, async () => {
    const forged = [
      'mutenet_admin=',
      'mutenet_admin=%',
      'mutenet_admin=%E0%A4%A',
      `mutenet_admin=${'x'.repeat(8000)}`,
      "mutenet_admin=' or 1=1 --",
      'mutenet_admin=a; mutenet_admin=b',
      '=; ;;mutenet_admin',
    ];
    for (const forgedCookie of forged) {
      const result = await httpClient(app.url).get('/admin/api/session', { headers: { cookie: forgedCookie } });
      expect(result.status, forgedCookie.slice(0, 40)).toBe(401);
    }
    for (const authorization of [
      'Bearer',
      'Bearer ',
      `Bearer ${'x'.repeat(8000)}`,
      "Bearer ' or 1=1 --",
      'Basic YTpi',
    ]) {
      const result = await httpClient(app.url).get('/admin/api/session', { headers: { authorization } });
      expect(result.status, authorization.slice(0, 40)).toBe(401);
    }
  });
});
