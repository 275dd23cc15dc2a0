import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captcha, latestCode, login, requestCode, signUp } from '../../test/accounts.js';
import { type CallOptions, type CallResult, type HttpClient, httpClient } from '../../test/http-client.js';
import { rawRequest } from '../../test/raw-request.js';
import { CAPTCHA_TEST_CODE, DATABASES, REDIS_URL, startTestApp, type TestApp } from '../../test/test-app.js';

/** What an attacker types into a field. Every one of them must end in a clear error, never a 500. */
const HOSTILE_VALUES: [label: string, value: string][] = [
  ['SQL always-true', "' OR 1=1 --"],
  ['SQL drop table', '"; DROP TABLE users; --'],
  ['script tag', '<script>alert(1)</script>'],
  ['right-to-left override', 'admin\u202egnp.exe'],
  ['emoji', '😀👍🏽🇧🇷'],
  ['NUL', 'a\u0000b'],
  ['control characters', '\u0001\u0007\u001b[31m\u007f\r\n\t'],
  ['header injection', 'x@example.com\r\nBcc: victim@example.com'],
  ['10 KB string', 'x'.repeat(10 * 1024)],
  ['email-shaped SQL', "x'OR'1'='1@example.com"],
  ['email-shaped NUL', 'a\u0000b@example.com'],
  ['password-shaped SQL', "'OR1=1--Aa"],
  ['password-shaped NUL', 'Secret123\u0000'],
];

const MB = 1024 * 1024;
// A stack frame, a source path or an error class name: none of them may reach a client.
const STACK_TRACE = /\bat\s+\S+\s+\(|\.[cm]?[jt]s:\d+|node_modules|[A-Z][a-z]+Error\b/;
const KNOWN_MESSAGES = new Set(Object.values(MESSAGES).flatMap((texts) => Object.values(texts)));
// Only values that a browser can put into a header (the token travels in `Authorization`).
const headerSafe = (value: string) => /^[\x20-\x7e]*$/.test(value);

type Form = Record<string, string | string[]>;

type Route = {
  name: string;
  path: string;
  fields: string[];
  /** Sent with the session token of a signed-in customer. */
  signedIn?: boolean;
  /**
   * A well-formed form that fails at the last check the call makes (a wrong captcha answer, code or password), so
   * that a hostile value in any field travels as deep as it can and still cannot succeed.
   */
  form(api: HttpClient, seq: number): Promise<Record<string, string>>;
  /** The error that form gets. */
  fails: keyof typeof MESSAGES;
};

const nobody = (seq: number) => `nobody${seq}@example.com`;

const ROUTES: Route[] = [
  ...(['register', 'reset_password'] as const).map(
    (action): Route => ({
      name: `email code (${action})`,
      path: `/mutenet/verify/code/email?action=${action}`,
      fields: ['imgId', 'imgCode', 'email'],
      form: async (api, seq) => ({ ...(await captcha(api)), imgCode: 'wrong', email: nobody(seq) }),
      fails: 'CAPTCHA_INVALID',
    }),
  ),
  {
    name: 'register',
    path: '/mutenet/register',
    fields: ['name', 'email', 'password', 'emailCode', 'inviteCode'],
    form: async (_api, seq) => ({
      name: 'Probe',
      email: nobody(seq),
      password: 'Secret123',
      emailCode: '000000',
      inviteCode: 'FRIEND1',
    }),
    fails: 'EMAIL_CODE_INVALID',
  },
  {
    name: 'login',
    path: '/mutenet/login',
    fields: ['email', 'password', 'imgCode', 'imgId'],
    // A live captcha answered right: the hostile value reaches the database lookup and the password hash.
    form: async (api, seq) => ({ email: nobody(seq), password: 'Secret123', ...(await captcha(api)) }),
    fails: 'LOGIN_FAILED',
  },
  {
    name: 'password reset',
    path: '/mutenet/password/reset',
    fields: ['email', 'newPwd', 'emailCode'],
    form: async (_api, seq) => ({ email: nobody(seq), newPwd: 'NewSecret1', emailCode: '000000' }),
    fails: 'EMAIL_CODE_INVALID',
  },
  {
    name: 'change password',
    path: '/mutenet/user/password',
    fields: ['oldPwd', 'newPwd'],
    signedIn: true,
    form: async () => ({ oldPwd: 'Wrong123', newPwd: 'NewSecret1' }),
    fails: 'OLD_PASSWORD_WRONG',
  },
];

/** An envelope that says what went wrong, in the request's language, with the right status and no internals. */
function expectClearError(response: CallResult, label = '') {
  const where = `${label} → ${response.status} ${response.text.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  expect([200, 400, 401, 404, 405, 413, 415, 429], where).toContain(response.status);
  expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
  expect(response.body, where).toEqual({ code: expect.any(Number), msg: expect.any(String), data: null });
  expect(response.body.code, where).not.toBe(0);
  // Form-rule errors answer 200 with a code of their own; the others carry their HTTP status as the code.
  if (response.status === 200) expect(response.body.code, where).toBeGreaterThanOrEqual(1000);
  else expect(response.body.code, where).toBe(response.status);
  expect(KNOWN_MESSAGES.has(response.body.msg), where).toBe(true);
  expect(response.text, where).not.toMatch(STACK_TRACE);
}

/**
 * Field values run on every database, and on Redis, where they become parts of keys. How a request is framed (its
 * size, content type, encoding, headers) is refused before any database or store is reached: that runs once.
 */
const SETUPS = [
  ...DATABASES.map((database, index) => ({ label: database, database, redis: false, framing: index === 0 })),
  ...(REDIS_URL ? [{ label: 'sqlite with Redis', database: 'sqlite' as const, redis: true, framing: false }] : []),
];

describe.each(SETUPS)('hostile input on $label', ({ database, redis, framing }) => {
  const formCases = !redis;
  let app: TestApp;
  let token: string;
  let seq = 0;
  const client = () => httpClient(app.url, { language: 'en' });

  beforeAll(async () => {
    app = await startTestApp({ database, redis });
    token = await signUp(app, client(), `owner.${database}@example.com`);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Everything a request could have changed: each account and each session, byte for byte. */
  const snapshot = async () => ({
    users: await app.app.db.selectFrom('users').selectAll().orderBy('id').execute(),
    sessions: await app.app.db.selectFrom('sessions').selectAll().orderBy('id').execute(),
  });

  /**
   * Checks, around the tests of the describe it is called in, that they left every account and session as it was,
   * byte for byte, and that no request took the unexpected-error path, even where its answer looked fine.
   */
  function expectNothingChanged() {
    let before: Awaited<ReturnType<typeof snapshot>>;
    let logsBefore: number;
    beforeAll(async () => {
      before = await snapshot();
      logsBefore = app.logs.length;
    });
    afterAll(async () => {
      const after = await snapshot();
      expect(after.users).toHaveLength(before.users.length);
      expect(after.sessions).toHaveLength(before.sessions.length);
      expect(after).toEqual(before);
      const errors = app.logs.slice(logsBefore).filter((line) => /"level":(50|60)/.test(line));
      expect(errors).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }

  describe('changes nothing and always answers clearly', () => {
    expectNothingChanged();

    /** The route's failing form, with the session token where the call needs one. */
    async function send(route: Route, api: HttpClient, change: (form: Form) => Form | CallOptions) {
      const form = await route.form(api, ++seq);
      const changed = change(form);
      const options: CallOptions =
        'form' in changed || 'json' in changed || 'raw' in changed ? changed : { form: changed as Form };
      return api.post(route.path, { ...options, ...(route.signedIn ? { token } : {}) });
    }

    /** A body of its own, not built from the route's form (which would cost a captcha for nothing). */
    function sendBody(route: Route, options: CallOptions) {
      return client().post(route.path, { ...options, ...(route.signedIn ? { token } : {}) });
    }

    const eachField = (route: Route, value: unknown) => Object.fromEntries(route.fields.map((field) => [field, value]));

    // Each case has an IP and an email of its own, and changes nothing: they run side by side.
    describe.concurrent.each(ROUTES)('$name', (route) => {
      expectNothingChanged();

      it('fails as expected with its well-formed but wrong form', async () => {
        const response = await send(route, client(), (form) => form);
        expectClearError(response);
        expect(response.status).toBe(200);
        expect(response.body.msg).toBe(MESSAGES[route.fails].en);
      });

      const cases = route.fields.flatMap((field) =>
        HOSTILE_VALUES.map(([label, value]) => [field, label, value] as const),
      );
      it.each(cases)('%s = %s', async (field, label, value) => {
        const response = await send(route, client(), (form) => ({ ...form, [field]: value }));
        expectClearError(response, `${field}=${label}`);
      });

      if (!formCases) return;

      it.each(route.fields)('%s missing', async (field) => {
        const response = await send(route, client(), ({ [field]: _, ...rest }) => rest);
        expectClearError(response);
        expect(response.status).toBe(200);
      });

      it.each(route.fields)('%s sent twice (an array)', async (field) => {
        const response = await send(route, client(), (form) => ({ ...form, [field]: [form[field] as string, 'x'] }));
        expectClearError(response);
        expect(response.status).toBe(400);
      });

      it('with no body, or an empty one', async () => {
        for (const options of [{}, { form: {} }, { raw: { body: '', type: 'application/x-www-form-urlencoded' } }]) {
          const response = await client().post(route.path, { ...options, ...(route.signedIn ? { token } : {}) });
          expectClearError(response, JSON.stringify(options));
          expect(response.status).toBe(200);
        }
      });

      it('with every field hostile at once', async () => {
        // Each value was tried in each field above; a few of them in every field at once are enough here.
        const together = ["' OR 1=1 --", '<script>alert(1)</script>', 'a\u0000b@example.com', 'x'.repeat(10 * 1024)];
        for (const value of together) {
          const label = JSON.stringify(value.slice(0, 30));
          const form = Object.fromEntries(route.fields.map((field) => [field, value]));
          expectClearError(await send(route, client(), () => form), label);
        }
      });

      it('with its form sent as JSON: checked the same way', async () => {
        const api = client();
        const response = await send(route, api, (form) => ({ json: form }));
        expectClearError(response);
        expect(response.body.msg).toBe(MESSAGES[route.fails].en);
      });

      it.each([
        ['pollution', '__proto__[polluted]=1&constructor[prototype][polluted]=1&a[b][c][d]=1'],
        ['bad escapes', '%zz=%&&==&%00=%0d%0a'],
        ['10 KB', `junk=${'q'.repeat(10 * 1024)}`],
        ['script', 'x=<script>alert(1)</script>&y=%27%20OR%201%3D1%20--'],
        ['many parameters', Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&')],
      ])('with an absurd query string (%s)', async (_label, query) => {
        const path = route.path.includes('?') ? `${route.path}&${query}` : `${route.path}?${query}`;
        const form = await route.form(client(), ++seq);
        const response = await client().post(path, { form, ...(route.signedIn ? { token } : {}) });
        expectClearError(response);
        expect(response.body.msg).toBe(MESSAGES[route.fails].en);
      });

      if (!framing) return;

      it('with a 1 MB body, as a form or as JSON: 413', async () => {
        const huge = 'x'.repeat(MB);
        for (const options of [
          { raw: { body: `email=${huge}`, type: 'application/x-www-form-urlencoded' } },
          { json: eachField(route, huge) },
        ]) {
          const response = await sendBody(route, options);
          expectClearError(response);
          expect(response.status).toBe(413);
          expect(response.body.msg).toBe(MESSAGES.PAYLOAD_TOO_LARGE.en);
        }
      });

      it.each([
        ['bad percent escapes', 'a=%zz&&=&%=%&email=%E0%A4%A'],
        ['binary garbage', Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x3d, 0x26, 0x80, 0xc3, 0x28, 0x3d, 0x0d, 0x0a])],
        ['only separators', '&&&===&&&'],
        ['nested brackets', 'email[a][b]=1&password[]=x&__proto__[polluted]=1&constructor[prototype][polluted]=1'],
      ])('with a malformed form body (%s)', async (_label, body) => {
        const response = await sendBody(route, { raw: { body, type: 'application/x-www-form-urlencoded' } });
        expectClearError(response);
      });

      it.each([
        ['numbers', (route: Route) => ({ json: eachField(route, 123) })],
        ['operator objects', (route: Route) => ({ json: eachField(route, { $ne: null }) })],
        ['nulls', (route: Route) => ({ json: eachField(route, null) })],
        ['a top-level array', (route: Route) => ({ json: [eachField(route, 'a@example.com')] })],
        ['a bare string', () => ({ json: 'email=a@example.com' })],
        ['null', () => ({ raw: { body: 'null', type: 'application/json' } })],
        ['cut-off JSON', () => ({ raw: { body: '{"email":"a@exa', type: 'application/json' } })],
        ['a prototype key', () => ({ raw: { body: '{"__proto__":{"polluted":1}}', type: 'application/json' } })],
        [
          'a constructor key',
          () => ({ raw: { body: '{"constructor":{"prototype":{"polluted":1}}}', type: 'application/json' } }),
        ],
      ])('with JSON of the wrong shape (%s): 400', async (_label, options: (route: Route) => CallOptions) => {
        const response = await sendBody(route, options(route));
        expectClearError(response);
        expect(response.status).toBe(400);
      });

      it.each([
        ['text/plain', 'email=a@example.com'],
        [
          'multipart/form-data; boundary=x',
          '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com\r\n--x--\r\n',
        ],
        ['application/xml', '<email>a@example.com</email>'],
        ['application/octet-stream', 'email=a@example.com'],
        ['application/x-www-form-urlencoded-evil', 'email=a@example.com'],
        ['', 'email=a@example.com'],
      ])('with an unsupported content type (%j): 415', async (type, body) => {
        const response = await sendBody(route, { raw: { body, type } });
        expectClearError(response);
        expect(response.status).toBe(415);
        expect(response.body.msg).toBe(MESSAGES.UNSUPPORTED_MEDIA_TYPE.en);
      });
    });

    // Framing, not field values: run once, on the first setup (see SETUPS), not registered on the others.
    if (framing) {
      describe('email code action', () => {
        it.each([
          ['missing', ''],
          ['empty', '?action='],
          ['unknown', '?action=steal'],
          ['upper case', '?action=REGISTER'],
          ['twice', '?action=register&action=reset_password'],
          ['SQL', `?action=${encodeURIComponent("register' OR 1=1 --")}`],
          ['NUL', '?action=register%00'],
          ['bracketed', '?action[]=register'],
          ['10 KB', `?action=${'r'.repeat(10 * 1024)}`],
        ])('refuses an action that is %s: 400', async (_label, query) => {
          const api = client();
          const response = await api.post(`/mutenet/verify/code/email${query}`, {
            form: { ...(await captcha(api)), email: nobody(++seq) },
          });
          expectClearError(response);
          expect(response.status).toBe(400);
        });
      });

      describe('logout', () => {
        const hostileTokens = HOSTILE_VALUES.map(([, value]) => value).filter(headerSafe);

        it.each([
          '',
          ...hostileTokens,
          ...hostileTokens.map((value) => `Bearer ${value}`),
          'Bearer ',
          'x'.repeat(10 * 1024),
        ])('refuses the token %j: 401', async (forged) => {
          const response = await client().post('/mutenet/logout', { headers: { authorization: forged } });
          expectClearError(response);
          expect(response.status).toBe(401);
        });

        it('refuses a hostile body without a token: 401', async () => {
          for (const options of [
            { form: { token } },
            { json: { authorization: token } },
            { raw: { body: 'a=%zz&&=', type: 'application/x-www-form-urlencoded' } },
            { raw: { body: 'x'.repeat(MB), type: 'application/x-www-form-urlencoded' } },
            { raw: { body: 'hello', type: 'text/plain' } },
          ]) {
            expectClearError(await client().post('/mutenet/logout', options));
          }
          // The token is sent in a cookie: the customer API takes the `Authorization` header only.
          const cookie = await client().post('/mutenet/logout', { headers: { cookie: `token=${token}` } });
          expectClearError(cookie);
          expect(cookie.status).toBe(401);
        });

        it('refuses a 1 MB body even with a live token: 413, signed in still', async () => {
          const response = await client().post('/mutenet/logout', {
            token,
            raw: { body: `a=${'x'.repeat(MB)}`, type: 'application/x-www-form-urlencoded' },
          });
          expectClearError(response);
          expect(response.status).toBe(413);
          expect((await client().post('/mutenet/login', { token })).body.code).toBe(0);
        });
      });

      describe('captcha, which takes no input', () => {
        it('ignores an absurd query string, and a body on GET', async () => {
          for (const query of ['?__proto__[polluted]=1&a=%zz', `?x=${'<script>'.repeat(1000)}`, "?id=' OR 1=1 --"]) {
            const { status, body } = await client().get(`/mutenet/verify/code/img${query}`);
            expect(status).toBe(200);
            expect(body.code).toBe(0);
            expect(body.data.imgDat).toMatch(/^data:image\/svg\+xml;base64,/);
          }
          const withBody = await rawRequest(app.url, {
            method: 'GET',
            path: '/mutenet/verify/code/img',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': client().ip },
            body: Buffer.alloc(MB, '{'),
          });
          expect(withBody.status).toBe(200);
          expect(withBody.body.code).toBe(0);
        });

        it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s with a 405 envelope naming GET', async (method) => {
          const response = await client().call(method, '/mutenet/verify/code/img', { form: { imgId: "' OR 1=1 --" } });
          expectClearError(response);
          expect(response.status).toBe(405);
          expect(response.headers.get('allow')).toBe('GET, HEAD');
        });
      });

      it('copes with hostile headers', async () => {
        const api = client();
        const response = await api.post('/mutenet/login', {
          form: { email: '', password: '', imgCode: '' },
          headers: {
            'accept-language': `${'x'.repeat(10 * 1024)}, ' OR 1=1 --;q=abc, <script>`,
            'x-forwarded-for': "' OR 1=1 --, <script>alert(1)</script>, 999.999.999.999",
            'x-request-id': '<script>alert(1)</script>',
          },
        });
        expectClearError(response);
        // An unknown language is the default one.
        expect(response.body).toMatchObject({ code: 1001, msg: MESSAGES.ALL_REQUIRED['pt-BR'] });
      });

      it('refuses a query string longer than the server reads with a 4xx and no internals', async () => {
        const response = await client().post(`/mutenet/login?junk=${'q'.repeat(32 * 1024)}`, { form: {} });
        expect(response.status).toBe(431);
        expect(response.text).not.toMatch(STACK_TRACE);
      });
    }
  });

  describe('hostile text that passes every rule', () => {
    it('is stored and matched as plain data', async () => {
      const api = client();
      const email = `x'or'1'='1.${database}@example.com`;
      const name = '"; DROP TABLE users; --';
      const password = "'OR1=1--Aa";
      expect((await requestCode(api, email)).code).toBe(0);
      const created = await api.post('/mutenet/register', {
        form: { name, email, password, emailCode: await latestCode(app, email) },
      });
      expect(created.body).toMatchObject({ code: 0 });
      const rows = await app.app.db.selectFrom('users').select(['email', 'name']).where('email', '=', email).execute();
      expect(rows).toEqual([{ email, name }]);
      expect(await login(api, email, password)).toBeTruthy();
      // An always-true password does not open any account, this one included.
      const wrong = await api.post('/mutenet/login', {
        form: { email, password: "' OR '1'='1", imgCode: CAPTCHA_TEST_CODE, imgId: (await captcha(api)).imgId },
      });
      expect(wrong.body.code).toBe(1015);
    });
  });
});
