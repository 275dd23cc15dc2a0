import { ADMIN_PENDING_SIGN_IN_COOKIE, ADMIN_SESSION_COOKIE, type OperatorRole } from '@mutenet/contract';
import { parseSetCookie } from 'cookie';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { httpClient } from './http-client.js';
import type { TestApp } from './test-app.js';
import { recordSecret } from './test-log.js';

/** The console as a browser runs it: the cookies it was given, and its own origin on every call. */
export function consoleOf(app: TestApp, ip?: string) {
  const api = httpClient(app.url, ip ? { ip } : {});
  const ownOrigin = new URL(app.config.publicUrl).origin;
  // The session's cookie (`mutenet_admin`) and a sign-in's waiting for its passkey (`mutenet_admin_pending`).
  const cookies = new Map<string, string>();
  let lastSetCookie: string | null = null;
  async function call(method: string, path: string, json?: unknown, headers: Record<string, string> = {}) {
    const sent = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const result = await api.call(method, `${app.config.adminPath}${path}`, {
      ...(json !== undefined ? { json } : {}),
      headers: { origin: ownOrigin, ...(sent ? { cookie: sent } : {}), ...headers },
    });
    lastSetCookie = null;
    for (const header of result.headers.getSetCookie()) {
      const { name, value } = parseSetCookie(header);
      if (name === ADMIN_SESSION_COOKIE) lastSetCookie = header;
      if (value) {
        cookies.set(name, value);
        recordSecret('session token', value);
      } else cookies.delete(name);
    }
    return result;
  }
  return {
    call,
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, json?: unknown, headers?: Record<string, string>) => call('POST', path, json ?? {}, headers),
    put: (path: string, json: unknown, headers?: Record<string, string>) => call('PUT', path, json, headers),
    delete: (path: string) => call('DELETE', path),
    signIn: (email: string, password: string, code?: string) =>
      call('POST', '/api/session', { email, password, ...(code !== undefined ? { code } : {}) }),
    get cookie() {
      return cookies.get(ADMIN_SESSION_COOKIE);
    },
    set cookie(value: string | undefined) {
      if (value === undefined) cookies.delete(ADMIN_SESSION_COOKIE);
      else cookies.set(ADMIN_SESSION_COOKIE, value);
    },
    /** The token of a sign-in waiting for its passkey, if the console holds one. */
    get pendingSignIn() {
      return cookies.get(ADMIN_PENDING_SIGN_IN_COOKIE);
    },
    set pendingSignIn(value: string | undefined) {
      if (value === undefined) cookies.delete(ADMIN_PENDING_SIGN_IN_COOKIE);
      else cookies.set(ADMIN_PENDING_SIGN_IN_COOKIE, value);
    },
    /** The session cookie's `Set-Cookie` of the last answer, if it had one. */
    get setCookie() {
      return lastSetCookie;
    },
  };
}

export type Console = ReturnType<typeof consoleOf>;

export const totpOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

/** The password an operator chooses at the first sign-in, in the console tests. */
export const OPERATOR_PASSWORD = 'Operator123';

/**
 * An operator of the role with a full console session, as the console makes one: added (here through the service),
 * signed in with the one-time password, the password changed, and for an owner an authenticator enrolled.
 */
export async function operatorSession(app: TestApp, email: string, role: OperatorRole) {
  const { operator, password } = await app.app.operators.add(email, role);
  recordSecret('password', password);
  const client = consoleOf(app);
  expect((await client.signIn(email, password)).body.code).toBe(0);
  expect((await client.post('/api/session/password', { current: password, next: OPERATOR_PASSWORD })).body.code).toBe(
    0,
  );
  recordSecret('password', OPERATOR_PASSWORD);
  if (role === 'owner') {
    const begun = await client.post('/api/session/totp');
    const { secret } = begun.body.data;
    recordSecret('password', secret);
    // A time step of its own: the clock moves on, so that no code of another test's step is taken for it.
    app.clock.advance(30_000);
    const code = totpOf(secret).generate({ timestamp: app.clock.now() });
    expect((await client.post('/api/session/totp/confirm', { code })).body).toMatchObject({ code: 0 });
  }
  return { id: operator.id, email, role, client };
}
