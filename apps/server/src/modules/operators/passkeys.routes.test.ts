import { ERRORS } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResult } from '../../test/http-client.js';
import { type Console, consoleOf, OPERATOR_PASSWORD, operatorSession, totpOf } from '../../test/operators.js';
import { DATABASES, REDIS_URL, startTestApp, type TestApp } from '../../test/test-app.js';
import { recordSecret } from '../../test/test-log.js';
import { SoftwareAuthenticator, type Tampering } from '../../test/webauthn-authenticator.js';
import { OPERATOR_FAILURES_PER_ACCOUNT } from './operators.service.js';

function expectError(result: CallResult, key: keyof typeof ERRORS) {
  expect({ status: result.status, code: result.body.code }).toEqual({
    status: ERRORS[key].status,
    code: ERRORS[key].code,
  });
}

describe.each(DATABASES)('operators’ passkeys on %s', (database) => {
  let app: TestApp;
  let origin: string;
  let serial = 0;
  const emailOf = (role: string) => `${role}${++serial}.passkeys.${database}@example.com`;

  /** Adds a passkey of the authenticator in the client's session, as the console does: options, then the answer. */
  async function addPasskey(client: Console, authenticator: SoftwareAuthenticator, name = 'Laptop', tampering = {}) {
    const begun = await client.post('/api/session/passkeys/options');
    expect(begun.body.code).toBe(0);
    return client.post('/api/session/passkeys', {
      name,
      response: authenticator.register(begun.body.data.options, tampering),
    });
  }

  /** The password, answered SECOND_FACTOR_REQUIRED: a console holding the pending sign-in. */
  async function passwordFirst(email: string) {
    const client = consoleOf(app);
    const answered = await client.signIn(email, OPERATOR_PASSWORD);
    expectError(answered, 'SECOND_FACTOR_REQUIRED');
    expect(client.pendingSignIn).toBeTruthy();
    expect(client.cookie).toBeUndefined();
    return { client, factors: answered.body.data.factors as string[] };
  }

  /** Options for the pending sign-in, answered by the authenticator (as tampered with). */
  async function passkeyAnswer(client: Console, authenticator: SoftwareAuthenticator, tampering: Tampering = {}) {
    const begun = await client.post('/api/session/passkey/options');
    expect(begun.body.code).toBe(0);
    return authenticator.assert(begun.body.data.options, tampering);
  }

  async function auditOf(action: string) {
    return app.app.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
  }

  beforeAll(async () => {
    app = await startTestApp({ database, redis: Boolean(REDIS_URL) });
    origin = new URL(app.config.publicUrl).origin;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lets an owner enrol a passkey instead of an authenticator app and sign in with it', async () => {
    const email = emailOf('owner');
    const { password } = await app.app.operators.add(email, 'owner');
    recordSecret('password', password);
    const client = consoleOf(app);
    expect((await client.signIn(email, password)).body.data).toEqual({ next: 'change-password' });
    // The one-time password first.
    expectError(await client.post('/api/session/passkeys/options'), 'FORBIDDEN');
    const changed = await client.post('/api/session/password', { current: password, next: OPERATOR_PASSWORD });
    expect(changed.body.data).toEqual({ next: 'enrol-second-factor' });
    expect((await client.get('/api/session')).body.data).toMatchObject({ passkeys: 0, secondFactorPending: true });
    expectError(await client.get('/api/operators'), 'FORBIDDEN');

    const authenticator = new SoftwareAuthenticator(origin);
    const begun = await client.post('/api/session/passkeys/options');
    const { options } = begun.body.data;
    expect(options).toMatchObject({
      rp: { id: new URL(origin).hostname },
      user: { name: email },
      attestation: 'none',
      excludeCredentials: [],
    });
    const added = await client.post('/api/session/passkeys', {
      name: ' Laptop ',
      response: authenticator.register(options),
    });
    expect(added.body).toMatchObject({
      code: 0,
      data: { next: 'ready', passkey: { name: 'Laptop', lastUsedAt: null } },
    });
    const session = (await client.get('/api/session')).body.data;
    expect(session).toMatchObject({ totpEnrolled: false, passkeys: 1, secondFactorPending: false });
    expect(session.permissions).toContain('operators.manage');
    const [audit] = await auditOf('passkey.add');
    expect(audit).toMatchObject({ target_type: 'passkey', target_id: String(added.body.data.passkey.id) });
    expect(JSON.parse(audit?.after ?? '{}')).toEqual({
      operatorId: expect.any(Number),
      name: 'Laptop',
      credentialId: authenticator.credentialId.slice(0, 8),
    });

    // The next sign-in: the password, then the passkey.
    const { client: next, factors } = await passwordFirst(email);
    expect(factors).toEqual(['passkey']);
    expectError(await next.get('/api/session'), 'UNAUTHORIZED');
    const signInOptions = (await next.post('/api/session/passkey/options')).body.data.options;
    expect(signInOptions).toMatchObject({
      rpId: new URL(origin).hostname,
      allowCredentials: [{ id: authenticator.credentialId, type: 'public-key', transports: ['internal'] }],
    });
    const signedIn = await next.post('/api/session/passkey', authenticator.assert(signInOptions));
    expect(signedIn.body).toMatchObject({ code: 0, data: { next: 'ready' } });
    expect(next.pendingSignIn).toBeUndefined();
    expect((await next.get('/api/session')).body.data).toMatchObject({ email, passkeys: 1 });
    const [listed] = (await next.get('/api/session/passkeys')).body.data.passkeys;
    expect(listed).toEqual({
      id: added.body.data.passkey.id,
      name: 'Laptop',
      createdAt: expect.any(Number),
      lastUsedAt: expect.any(Number),
    });
    expect(listed.lastUsedAt).toBeGreaterThanOrEqual(listed.createdAt);

    // An owner's last second factor stays; without a pending sign-in there is nothing to answer.
    expectError(await next.delete(`/api/session/passkeys/${listed.id}`), 'LAST_SECOND_FACTOR');
    expectError(await consoleOf(app).post('/api/session/passkey/options'), 'UNAUTHORIZED');
  });

  it('refuses a wrong signature or origin, a replayed answer, another operator’s passkey and a counter gone back', async () => {
    const alice = await operatorSession(app, emailOf('manager'), 'manager');
    const bob = await operatorSession(app, emailOf('manager'), 'manager');
    const alicesKey = new SoftwareAuthenticator(origin);
    const bobsKey = new SoftwareAuthenticator(origin);
    expect((await addPasskey(alice.client, alicesKey)).body.code).toBe(0);
    expect((await addPasskey(bob.client, bobsKey)).body.code).toBe(0);

    const { client } = await passwordFirst(alice.email);
    for (const tampering of [{ badSignature: true }, { origin: 'https://evil.example' }]) {
      expectError(
        await client.post('/api/session/passkey', await passkeyAnswer(client, alicesKey, tampering)),
        'LOGIN_FAILED',
      );
    }
    // Bob's passkey does not answer for Alice, even signed right.
    expectError(await client.post('/api/session/passkey', await passkeyAnswer(client, bobsKey)), 'LOGIN_FAILED');
    // A valid answer without options begun (its challenge taken by the last call): refused.
    const valid = await passkeyAnswer(client, alicesKey);
    expect((await client.post('/api/session/passkey', valid)).body).toMatchObject({ code: 0 });
    const pendingUsed = client.pendingSignIn;
    expect(pendingUsed).toBeUndefined();

    // The same answer again, in a new sign-in: its challenge was another's, and this one's is then spent.
    const { client: replay } = await passwordFirst(alice.email);
    const fresh = await passkeyAnswer(replay, alicesKey);
    expectError(await replay.post('/api/session/passkey', valid), 'LOGIN_FAILED');
    expectError(await replay.post('/api/session/passkey', fresh), 'LOGIN_FAILED');
    // A counter that went back (a cloned authenticator): refused; one that moved on signs in.
    expectError(
      await replay.post('/api/session/passkey', await passkeyAnswer(replay, alicesKey, { counter: 1 })),
      'LOGIN_FAILED',
    );
    alicesKey.counter = 100;
    expect((await replay.post('/api/session/passkey', await passkeyAnswer(replay, alicesKey))).body.code).toBe(0);

    // Failed answers count against the account as wrong passwords do.
    const { client: guesser } = await passwordFirst(bob.email);
    for (let failure = 0; failure < OPERATOR_FAILURES_PER_ACCOUNT; failure++) {
      await guesser.post('/api/session/passkey', await passkeyAnswer(guesser, bobsKey, { badSignature: true }));
    }
    expectError(await guesser.post('/api/session/passkey/options'), 'TOO_MANY_REQUESTS');
    expectError(await consoleOf(app).signIn(bob.email, OPERATOR_PASSWORD), 'TOO_MANY_REQUESTS');
  });

  it('lists and removes an operator’s own passkeys, and takes a registration once', async () => {
    const owner = await operatorSession(app, emailOf('owner'), 'owner');
    const other = await operatorSession(app, emailOf('support'), 'support');
    const phone = new SoftwareAuthenticator(origin);
    const key = new SoftwareAuthenticator(origin);
    expect((await addPasskey(owner.client, phone, 'Phone')).body.code).toBe(0);

    // A registration answered twice, for another origin, or of a passkey already there: refused.
    const begun = (await owner.client.post('/api/session/passkeys/options')).body.data.options;
    expect(begun.excludeCredentials).toEqual([
      { id: phone.credentialId, type: 'public-key', transports: ['internal'] },
    ]);
    const registration = key.register(begun);
    expect((await owner.client.post('/api/session/passkeys', { name: 'Key', response: registration })).body.code).toBe(
      0,
    );
    expectError(
      await owner.client.post('/api/session/passkeys', { name: 'Key', response: registration }),
      'PASSKEY_INVALID',
    );
    expectError(
      await addPasskey(owner.client, new SoftwareAuthenticator(origin), 'Evil', { origin: 'https://evil.example' }),
      'PASSKEY_INVALID',
    );
    expectError(await addPasskey(other.client, phone), 'PASSKEY_INVALID');
    expectError(
      await owner.client.post('/api/session/passkeys', { name: 'x'.repeat(65), response: registration }),
      'PASSKEY_NAME_INVALID',
    );

    const listed = (await owner.client.get('/api/session/passkeys')).body.data.passkeys;
    expect(listed.map((passkey: { name: string }) => passkey.name)).toEqual(['Phone', 'Key']);
    expect(JSON.stringify(listed)).not.toContain('publicKey');

    // Both factors offered at sign-in; the authenticator app's code still signs in alone.
    const { factors } = await passwordFirst(owner.email);
    expect(factors).toEqual(['totp', 'passkey']);

    // Someone else's passkey is not found; an owner with an authenticator app may remove every passkey.
    expectError(await other.client.delete(`/api/session/passkeys/${listed[0].id}`), 'NOT_FOUND');
    for (const passkey of listed) {
      expect((await owner.client.delete(`/api/session/passkeys/${passkey.id}`)).body.code).toBe(0);
    }
    expect((await owner.client.get('/api/session')).body.data).toMatchObject({
      passkeys: 0,
      secondFactorPending: false,
    });
    const removed = (await auditOf('passkey.remove')).filter((row) =>
      listed.some((p: { id: number }) => String(p.id) === row.target_id),
    );
    expect(removed.map((row) => JSON.parse(row.before ?? '{}').name)).toEqual(['Phone', 'Key']);
    expect(removed.map((row) => row.after)).toEqual([null, null]);

    // An API token has no passkeys of its own.
    const { token } = await app.app.operators.createApiToken({ name: 'script', role: 'owner', createdBy: owner.id });
    recordSecret('session token', token);
    const script = await consoleOf(app).call('GET', '/api/session/passkeys', undefined, {
      authorization: `Bearer ${token}`,
    });
    expectError(script, 'FORBIDDEN');

    // The code still signs in an operator who also has passkeys.
    app.clock.advance(30_000);
    const secret =
      (
        await app.app.db
          .selectFrom('operators')
          .select('totp_secret')
          .where('id', '=', owner.id)
          .executeTakeFirstOrThrow()
      ).totp_secret ?? '';
    const withCode = await consoleOf(app).signIn(
      owner.email,
      OPERATOR_PASSWORD,
      totpOf(secret).generate({ timestamp: app.clock.now() }),
    );
    expect(withCode.body).toMatchObject({ code: 0, data: { next: 'ready' } });
  });
});
