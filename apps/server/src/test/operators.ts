import type { OperatorRole } from '@mutenet/contract';
import { parseSetCookie } from 'cookie';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { httpClient } from './http-client.js';
import type { TestApp } from './test-app.js';
import { recordSecret } from './test-log.js';

/** The console as a browser runs it: the session cookie it was given, and its own origin on every call. */
export function consoleOf(app: TestApp, ip?: string) {
  const api = httpClient(app.url, ip ? { ip } : {});
  const ownOrigin = new URL(app.config.publicUrl).origin;
  let cookie: string | undefined;
  let lastSetCookie: string | null = null;
  async function call(method: string, path: string, json?: unknown, headers: Record<string, string> = {}) {
    const result = await api.call(method, `${app.config.adminPath}${path}`, {
      ...(json !== undefined ? { json } : {}),
      headers: { origin: ownOrigin, ...(cookie ? { cookie: `mutenet_admin=${cookie}` } : {}), ...headers },
    });
    lastSetCookie = result.headers.get('set-cookie');
    if (lastSetCookie) {
      cookie = parseSetCookie(lastSetCookie).value || undefined;
      recordSecret('session token', cookie);
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
      return cookie;
    },
    set cookie(value: string | undefined) {
      cookie = value;
    },
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
