import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captcha, PASSWORD, signUp } from '../../test/accounts.js';
import { type CallResult, type HttpClient, httpClient } from '../../test/http-client.js';
import { newRedisKeyPrefix, REDIS_URL, startTestApp, type TestApp } from '../../test/test-app.js';
import { IP_LIMITS } from './auth.routes.js';

type Limited = {
  name: string;
  limit: { max: number; timeWindow: number };
  /** A well-formed call, which counts against the limit; it answers `code` while under it. */
  call(api: HttpClient, token: string): Promise<CallResult>;
  code: number;
};

const LIMITED: Limited[] = [
  {
    name: 'captcha',
    limit: IP_LIMITS.captcha,
    call: (api) => api.get('/mutenet/verify/code/img'),
    code: 0,
  },
  {
    name: 'email code',
    limit: IP_LIMITS.emailCode,
    call: (api) =>
      api.post('/mutenet/verify/code/email?action=register', {
        form: { imgId: 'no-such-captcha', imgCode: 'abcd', email: 'someone@example.com' },
      }),
    code: 1011,
  },
  {
    name: 'login',
    limit: IP_LIMITS.login,
    call: (api) =>
      api.post('/mutenet/login', {
        form: { email: 'someone@example.com', password: PASSWORD, imgCode: 'abcd', imgId: 'no-such-captcha' },
      }),
    code: 1011,
  },
  {
    name: 'register',
    limit: IP_LIMITS.register,
    call: (api) =>
      api.post('/mutenet/register', {
        form: { name: 'Someone', email: 'someone@example.com', password: PASSWORD, emailCode: '000000' },
      }),
    code: 1012,
  },
  {
    name: 'password reset',
    limit: IP_LIMITS.resetPassword,
    call: (api) =>
      api.post('/mutenet/password/reset', {
        form: { email: 'someone@example.com', newPwd: 'NewSecret1', emailCode: '000000' },
      }),
    code: 1012,
  },
  {
    name: 'change password',
    limit: IP_LIMITS.changePassword,
    call: (api, token) =>
      api.post('/mutenet/user/password', { form: { oldPwd: 'Wrong123', newPwd: 'NewSecret1' }, token }),
    code: 1016,
  },
];

/** The 429 envelope in the request's language, with the seconds to wait. */
function expectLimited(response: CallResult, language: 'en' | 'pt-BR' | 'zh-Hans', windowMs: number) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ code: 429, msg: MESSAGES.TOO_MANY_REQUESTS[language], data: null });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
}

/** Uses up the budget of one client: every call within it answers as usual. */
async function exhaust(api: HttpClient, limited: Limited, token: string, count = limited.limit.max) {
  for (let i = 0; i < count; i++) {
    const response = await limited.call(api, token);
    expect(response.status, `call ${i + 1} of ${count}`).toBe(200);
    expect(response.body.code, `call ${i + 1} of ${count}`).toBe(limited.code);
  }
}

const SETUPS = [{ store: 'memory', redis: false }, ...(REDIS_URL ? [{ store: 'Redis', redis: true }] : [])];

describe.each(SETUPS)('per-IP limits counted in $store', ({ redis }) => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp({ redis });
    token = await signUp(app, httpClient(app.url), 'limits@example.com');
  });
  afterAll(async () => {
    await app?.close();
  });

  describe.each(LIMITED)('$name', (limited) => {
    it('answers 429 past the limit, in the language of the request, while another IP goes on', async () => {
      const portuguese = httpClient(app.url, { language: 'pt-BR' });
      await exhaust(portuguese, limited, token);
      expectLimited(await limited.call(portuguese, token), 'pt-BR', limited.limit.timeWindow);

      const chinese = httpClient(app.url, { ip: portuguese.ip, language: 'zh-Hans' });
      expectLimited(await limited.call(chinese, token), 'zh-Hans', limited.limit.timeWindow);

      const other = httpClient(app.url, { language: 'en' });
      const response = await limited.call(other, token);
      expect(response.status).toBe(200);
      expect(response.body.code).toBe(limited.code);
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBe(limited.limit.max - 1);
    });
  });

  it('counts only well-formed calls: a form the rules refuse does not use the budget', async () => {
    const api = httpClient(app.url, { language: 'en' });
    for (let i = 0; i < IP_LIMITS.login.max * 2; i++) {
      const { status, body } = await api.post('/mutenet/login', { form: { email: '', password: '', imgCode: '' } });
      expect(status).toBe(200);
      expect(body.code).toBe(1001);
    }
    const login = LIMITED.find((limited) => limited.name === 'login')!;
    await exhaust(api, login, token);
    expectLimited(await login.call(api, token), 'en', IP_LIMITS.login.timeWindow);
  });

  it('refuses even a right password once an IP is over the login limit, and opens no session', async () => {
    const api = httpClient(app.url, { language: 'en' });
    const login = LIMITED.find((limited) => limited.name === 'login')!;
    await exhaust(api, login, token);
    const sessions = await app.app.db.selectFrom('sessions').select('id').execute();
    const right = await api.post('/mutenet/login', {
      form: { email: 'limits@example.com', password: PASSWORD, ...(await captcha(api)) },
    });
    expectLimited(right, 'en', IP_LIMITS.login.timeWindow);
    expect(right.headers.get('authorization')).toBeNull();
    expect(await app.app.db.selectFrom('sessions').select('id').execute()).toHaveLength(sessions.length);
  });

  it('does not count the session check, which runs on every page load', async () => {
    const api = httpClient(app.url, { language: 'en' });
    for (let i = 0; i < IP_LIMITS.login.max + 5; i++) {
      expect((await api.post('/mutenet/login', { token })).body.code).toBe(0);
    }
  });
});

describe.runIf(REDIS_URL)('two instances on one Redis', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const redisKeyPrefix = newRedisKeyPrefix();
    [first, second] = await Promise.all([
      startTestApp({ redis: true, redisKeyPrefix }),
      startTestApp({ redis: true, redisKeyPrefix }),
    ]);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it.each(LIMITED.filter((limited) => limited.name !== 'change password'))(
    'count $name calls together',
    async (limited) => {
      expect(first.url).not.toBe(second.url);
      const one = httpClient(first.url, { language: 'en' });
      const two = httpClient(second.url, { ip: one.ip, language: 'en' });
      const half = Math.floor(limited.limit.max / 2);
      await exhaust(one, limited, '', half);
      await exhaust(two, limited, '', limited.limit.max - half);
      expectLimited(await limited.call(one, ''), 'en', limited.limit.timeWindow);
      expectLimited(await limited.call(two, ''), 'en', limited.limit.timeWindow);
      // Another IP on either instance is unaffected.
      expect((await limited.call(httpClient(second.url), '')).status).toBe(200);
    },
  );

  it('share captchas: one made by the first instance is taken, once, by the second', async () => {
    const one = httpClient(first.url, { language: 'en' });
    const two = httpClient(second.url, { language: 'en' });
    const answer = await captcha(one);
    const form = { ...answer, email: 'shared@example.com' };
    expect((await two.post('/mutenet/verify/code/email?action=register', { form })).body.code).toBe(0);
    expect((await one.post('/mutenet/verify/code/email?action=register', { form })).body.code).toBe(1011);
  });
});
