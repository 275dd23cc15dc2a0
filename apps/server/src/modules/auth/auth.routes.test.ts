import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/secrets.js';
import {
  captcha,
  latestCode,
  login,
  mailsTo,
  PASSWORD,
  registerUser,
  requestCode,
  signUp,
} from '../../test/accounts.js';
import { getRaw, httpClient } from '../../test/http-client.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

const en = (key: keyof typeof MESSAGES) => MESSAGES[key].en;

describe.each(DATABASES)('accounts on %s', (database) => {
  let app: TestApp;
  let emailSeq = 0;
  const newEmail = () => `user${++emailSeq}.${database}@example.com`;
  const client = () => httpClient(app.url, { language: 'en' });

  beforeAll(async () => {
    app = await startTestApp({ database });
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('captcha', () => {
    it('answers a data: URI image and an id', async () => {
      const { status, body, headers } = await client().get('/mutenet/verify/code/img');
      expect(status).toBe(200);
      expect(body.code).toBe(0);
      expect(body.data.imgDat).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/);
      expect(body.data.imgId).toMatch(/^[\w-]{16,}$/);
      expect(headers.get('cache-control')).toBe('no-store');
      // A picture in base64 is sent as it is, even to a browser that accepts brotli.
      const raw = await getRaw(`${app.url}/mutenet/verify/code/img`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(raw.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(raw.body.toString()).data.imgDat).toMatch(/^data:image\/svg\+xml;base64,/);
    });

    it('is single-use, whether the answer was right or wrong', async () => {
      const api = client();
      const email = newEmail();
      await registerUser(app, api, email);
      const answer = await captcha(api);
      expect((await api.post('/mutenet/login', { form: { email, password: PASSWORD, ...answer } })).body.code).toBe(0);
      const reused = await api.post('/mutenet/login', { form: { email, password: PASSWORD, ...answer } });
      expect(reused.body).toMatchObject({ code: 1011, msg: en('CAPTCHA_INVALID') });

      const wrong = await captcha(api);
      const first = await api.post('/mutenet/login', {
        form: { email, password: PASSWORD, ...wrong, imgCode: 'nope' },
      });
      expect(first.body.code).toBe(1011);
      const second = await api.post('/mutenet/login', { form: { email, password: PASSWORD, ...wrong } });
      expect(second.body.code).toBe(1011);
    });

    it('expires after 5 minutes', async () => {
      const api = client();
      const email = newEmail();
      await registerUser(app, api, email);
      const answer = await captcha(api);
      app.clock.advance(5 * 60_000 + 1000);
      const { body } = await api.post('/mutenet/login', { form: { email, password: PASSWORD, ...answer } });
      expect(body.code).toBe(1011);
    });

    it('refuses an unknown id even with the test code', async () => {
      const { body } = await client().post('/mutenet/login', {
        form: { email: 'a@example.com', password: PASSWORD, imgId: 'unknown-id-123456', imgCode: 'pass42' },
      });
      expect(body.code).toBe(1011);
    });
  });

  describe('email codes', () => {
    it('checks the picture code, then the email, then the captcha', async () => {
      const api = client();
      const url = '/mutenet/verify/code/email?action=register';
      expect((await api.post(url, { form: { email: 'x@example.com' } })).body).toMatchObject({
        code: 1008,
        msg: en('PICTURE_CODE_FIRST'),
      });
      expect((await api.post(url, { form: { imgCode: 'abcd', email: 'not-an-email' } })).body).toMatchObject({
        code: 1002,
        msg: en('EMAIL_FORMAT'),
      });
      expect((await api.post(url, { form: { imgCode: 'abcd', imgId: 'x', email: 'x@example.com' } })).body.code).toBe(
        1011,
      );
    });

    it('refuses an unknown action', async () => {
      const api = client();
      const { status, body } = await api.post('/mutenet/verify/code/email?action=steal', {
        form: { ...(await captcha(api)), email: 'x@example.com' },
      });
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 400, msg: en('BAD_REQUEST') });
    });

    it('mails a 6-digit code in the request language, at most once a minute per address', async () => {
      const api = httpClient(app.url, { language: 'pt-BR' });
      const email = newEmail();
      expect(await requestCode(api, email)).toMatchObject({ code: 0, msg: MESSAGES.EMAIL_CODE_SENT['pt-BR'] });
      const [mail] = await mailsTo(app, email);
      expect(mail).toContain('Subject: =?UTF-8?Q?Seu_c=C3=B3digo_de_cadastro_Mutenet?=');
      expect(await latestCode(app, email)).toMatch(/^\d{6}$/);

      const again = await requestCode(client(), email, 'reset_password');
      expect(again).toMatchObject({ code: 1013, msg: en('EMAIL_CODE_TOO_SOON') });
      app.clock.advance(61_000);
      expect((await requestCode(client(), email)).code).toBe(0);
      expect(await mailsTo(app, email)).toHaveLength(2);
    });

    it('does not reveal whether an address has an account', async () => {
      const api = client();
      const taken = newEmail();
      await registerUser(app, api, taken);
      app.clock.advance(61_000);
      const unknown = newEmail();

      const registerTaken = await requestCode(api, taken, 'register');
      const registerNew = await requestCode(api, unknown, 'register');
      expect(registerTaken).toEqual(registerNew);
      const mails = await mailsTo(app, taken);
      expect(mails.at(-1)).toContain('already');
      expect(mails.at(-1)).not.toMatch(/^\s+\d{6}\s*$/m);

      app.clock.advance(61_000);
      const other = newEmail();
      const resetUnknown = await requestCode(api, other, 'reset_password');
      const resetKnown = await requestCode(api, taken, 'reset_password');
      expect(resetUnknown).toEqual(resetKnown);
      expect(await mailsTo(app, other)).toHaveLength(0);
    });
  });

  describe('register', () => {
    const valid = { name: 'Ana', email: 'ana@example.com', password: PASSWORD, emailCode: '123456' };
    it.each([
      [{ ...valid, name: '' }, 'USERNAME_INVALID'],
      [{ ...valid, name: '   ' }, 'USERNAME_INVALID'],
      [{ ...valid, name: 'x'.repeat(33) }, 'USERNAME_INVALID'],
      [{ ...valid, email: '' }, 'EMAIL_FORMAT'],
      [{ ...valid, email: 'ana@' }, 'EMAIL_FORMAT'],
      [{ ...valid, password: '' }, 'PASSWORD_BLANK'],
      [{ ...valid, password: 'abc123' }, 'PASSWORD_FORMAT'],
      [{ ...valid, password: 'Abc 123' }, 'PASSWORD_FORMAT'],
      [{ ...valid, password: 'Abc12' }, 'PASSWORD_FORMAT'],
      [{ ...valid, password: 'Abc123'.repeat(5) }, 'PASSWORD_FORMAT'],
      [{ ...valid, emailCode: '' }, 'EMAIL_CODE_REQUIRED'],
      [{ ...valid, inviteCode: '<script>' }, 'INVITE_CODE_INVALID'],
      [{ ...valid, name: '', email: '', password: '' }, 'USERNAME_INVALID'],
      [{ ...valid, email: 'bad', password: '' }, 'EMAIL_FORMAT'],
    ] as const)('reports the first problem: %j → %s', async (form, key) => {
      const { status, body } = await client().post('/mutenet/register', { form });
      expect(status).toBe(200);
      expect(body).toMatchObject({ msg: en(key), data: null });
      expect(body.code).not.toBe(0);
    });

    it('answers in the request language', async () => {
      const api = httpClient(app.url, { language: 'zh-Hans' });
      const { body } = await api.post('/mutenet/register', { form: { ...valid, password: '' } });
      expect(body.msg).toBe(MESSAGES.PASSWORD_BLANK['zh-Hans']);
      const portuguese = await httpClient(app.url).post('/mutenet/register', { form: { ...valid, password: '' } });
      expect(portuguese.body.msg).toBe(MESSAGES.PASSWORD_BLANK['pt-BR']);
    });

    it('needs the mailed code, once', async () => {
      const api = client();
      const email = newEmail();
      await requestCode(api, email);
      const code = await latestCode(app, email);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      expect((await api.post('/mutenet/register', { form: { ...valid, email, emailCode: wrong } })).body).toMatchObject(
        {
          code: 1012,
          msg: en('EMAIL_CODE_INVALID'),
        },
      );
      const ok = await api.post('/mutenet/register', {
        form: { ...valid, email, emailCode: code, inviteCode: 'FRIEND1' },
      });
      expect(ok.body).toMatchObject({ code: 0, msg: en('REGISTERED') });
      const again = await api.post('/mutenet/register', { form: { ...valid, email, emailCode: code } });
      expect(again.body.code).toBe(1012);
      const row = await app.app.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      expect(row.invite_code).toBe('FRIEND1');
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.uuid).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('kills a code after 5 wrong tries', async () => {
      const api = client();
      const email = newEmail();
      await requestCode(api, email);
      const code = await latestCode(app, email);
      for (let i = 1; i <= 5; i++) {
        const wrong = String((Number(code) + i) % 1_000_000).padStart(6, '0');
        expect((await api.post('/mutenet/register', { form: { ...valid, email, emailCode: wrong } })).body.code).toBe(
          1012,
        );
      }
      const right = await api.post('/mutenet/register', { form: { ...valid, email, emailCode: code } });
      expect(right.body.code).toBe(1012);
    });

    it('expires a code after 10 minutes', async () => {
      const api = client();
      const email = newEmail();
      await requestCode(api, email);
      const code = await latestCode(app, email);
      app.clock.advance(10 * 60_000 + 1000);
      expect((await api.post('/mutenet/register', { form: { ...valid, email, emailCode: code } })).body.code).toBe(
        1012,
      );
    });

    it('keeps emails unique whatever their case', async () => {
      const api = client();
      const email = newEmail();
      await requestCode(api, email.toUpperCase());
      const code = await latestCode(app, email);
      // An account made meanwhile (by another path) for the same address.
      await app.app.db
        .insertInto('users')
        .values({ email, name: 'x', password_hash: 'x', invite_code: null, uuid: crypto.randomUUID(), created_at: 0 })
        .execute();
      const { body } = await api.post('/mutenet/register', {
        form: { ...valid, email: email.toUpperCase(), emailCode: code },
      });
      expect(body).toMatchObject({ code: 1014, msg: en('EMAIL_TAKEN') });
    });
  });

  describe('login and sessions', () => {
    it('checks that all fields are filled, then the email format', async () => {
      const api = client();
      for (const form of [
        { email: '', password: PASSWORD, imgCode: 'x' },
        { email: 'a@example.com', password: '', imgCode: 'x' },
        { email: 'a@example.com', password: PASSWORD, imgCode: '' },
        { email: 'bad', password: '', imgCode: '' },
      ]) {
        expect((await api.post('/mutenet/login', { form })).body).toMatchObject({
          code: 1001,
          msg: en('ALL_REQUIRED'),
        });
      }
      expect(
        (await api.post('/mutenet/login', { form: { email: 'bad', password: PASSWORD, imgCode: 'x' } })).body,
      ).toMatchObject({ code: 1002, msg: en('EMAIL_FORMAT') });
      expect((await api.post('/mutenet/login')).body.code).toBe(1001);
    });

    it('logs in with any case of the email and returns the token in the authorization header', async () => {
      const api = client();
      const email = newEmail();
      await registerUser(app, api, email);
      const response = await api.post('/mutenet/login', {
        form: { email: email.toUpperCase(), password: PASSWORD, ...(await captcha(api)) },
      });
      expect(response.body).toEqual({ code: 0, msg: en('OK'), data: { user: email } });
      expect(response.headers.get('authorization')).toMatch(/^[\w-]{43}$/);
      const rows = await app.app.db.selectFrom('sessions').select('token_hash').execute();
      expect(rows.map((r) => r.token_hash)).not.toContain(response.headers.get('authorization'));
    });

    it('refuses a wrong password and an unknown email alike', async () => {
      const api = client();
      const email = newEmail();
      await registerUser(app, api, email);
      const wrong = await api.post('/mutenet/login', {
        form: { email, password: 'Wrong123', ...(await captcha(api)) },
      });
      const unknown = await api.post('/mutenet/login', {
        form: { email: newEmail(), password: PASSWORD, ...(await captcha(api)) },
      });
      expect(wrong.body).toEqual({ code: 1015, msg: en('LOGIN_FAILED'), data: null });
      expect(unknown.body).toEqual(wrong.body);
      expect(wrong.headers.get('authorization')).toBeNull();
    });

    it('checks the session with no body and the token', async () => {
      const api = client();
      const email = newEmail();
      const token = await signUp(app, api, email);
      expect((await api.post('/mutenet/login', { token })).body).toEqual({
        code: 0,
        msg: en('OK'),
        data: { user: email },
      });
      expect((await api.post('/mutenet/login', { token: `Bearer ${token}` })).body.code).toBe(0);
      for (const forged of ['nope', `${token}x`, 'x'.repeat(300)]) {
        const { status, body } = await api.post('/mutenet/login', { token: forged });
        expect(status).toBe(401);
        expect(body).toMatchObject({ code: 401, msg: en('UNAUTHORIZED') });
      }
    });

    it('expires a session after 30 days', async () => {
      const api = client();
      const email = newEmail();
      const token = await signUp(app, api, email);
      // Checked 10 seconds before it expires (and kept), and not 10 seconds after.
      app.clock.advance(30 * 24 * 3600_000 - 10_000);
      expect((await api.post('/mutenet/login', { token })).body.code).toBe(0);
      app.clock.advance(20_000);
      expect((await api.post('/mutenet/login', { token })).status).toBe(401);
      // The hourly job's work: the expired row goes, a live session stays.
      const live = await login(api, email);
      await app.app.auth.deleteExpiredSessions();
      const left = await app.app.db.selectFrom('sessions').select('token_hash').execute();
      expect(left.map((row) => row.token_hash)).not.toContain(hashToken(token));
      expect(left.map((row) => row.token_hash)).toContain(hashToken(live));
    });

    it('revokes the token on sign-out, and only that one', async () => {
      const api = client();
      const email = newEmail();
      const token = await signUp(app, api, email);
      const other = await login(api, email);
      expect((await api.post('/mutenet/logout', { token })).body).toMatchObject({ code: 0 });
      expect((await api.post('/mutenet/login', { token })).status).toBe(401);
      expect((await api.post('/mutenet/logout', { token })).status).toBe(401);
      expect((await api.post('/mutenet/login', { token: other })).body.code).toBe(0);
      expect((await api.post('/mutenet/logout')).status).toBe(401);
    });

    it('locks an account out after 10 wrong passwords in 15 minutes', async () => {
      const email = newEmail();
      await registerUser(app, client(), email);
      for (let i = 0; i < 10; i++) {
        const api = client();
        const { body } = await api.post('/mutenet/login', {
          form: { email, password: 'Wrong123', ...(await captcha(api)) },
        });
        expect(body.code).toBe(1015);
      }
      const api = client();
      const locked = await api.post('/mutenet/login', { form: { email, password: PASSWORD, ...(await captcha(api)) } });
      expect(locked.status).toBe(429);
      expect(locked.body).toMatchObject({ code: 429, msg: en('TOO_MANY_REQUESTS') });
      expect(locked.headers.get('retry-after')).toBe('900');
      app.clock.advance(15 * 60_000 + 1000);
      expect(await login(client(), email)).toBeTruthy();
    });

    it('refuses a banned account, and its sessions', async () => {
      const api = client();
      const email = newEmail();
      const token = await signUp(app, api, email);
      await app.app.db.updateTable('users').set({ banned: 1 }).where('email', '=', email).execute();
      expect((await api.post('/mutenet/login', { token })).status).toBe(401);
      const { body } = await api.post('/mutenet/login', {
        form: { email, password: PASSWORD, ...(await captcha(api)) },
      });
      expect(body).toMatchObject({ code: 1017, msg: en('ACCOUNT_DISABLED') });
    });
  });

  describe('password reset', () => {
    const form = { email: 'a@example.com', newPwd: 'NewSecret1', emailCode: '123456' };
    it.each([
      [{ ...form, email: '' }, 'EMAIL_FORMAT'],
      [{ ...form, email: '', newPwd: '' }, 'EMAIL_FORMAT'],
      [{ ...form, newPwd: '' }, 'PASSWORD_BLANK'],
      [{ ...form, newPwd: 'short' }, 'PASSWORD_FORMAT'],
      [{ ...form, newPwd: 'short', emailCode: '' }, 'PASSWORD_FORMAT'],
      [{ ...form, emailCode: '' }, 'EMAIL_CODE_REQUIRED'],
      [form, 'EMAIL_CODE_INVALID'],
    ] as const)('reports the first problem: %j → %s', async (body, key) => {
      expect((await client().post('/mutenet/password/reset', { form: body })).body.msg).toBe(en(key));
    });

    it('sets the new password and signs out everywhere', async () => {
      const api = client();
      const email = newEmail();
      const token = await signUp(app, api, email);
      app.clock.advance(61_000);
      await requestCode(api, email, 'reset_password');
      const code = await latestCode(app, email);
      const reset = await api.post('/mutenet/password/reset', {
        form: { email, newPwd: 'NewSecret1', emailCode: code },
      });
      expect(reset.body).toMatchObject({ code: 0, msg: en('PASSWORD_RESET') });
      expect((await api.post('/mutenet/login', { token })).status).toBe(401);
      const old = await api.post('/mutenet/login', { form: { email, password: PASSWORD, ...(await captcha(api)) } });
      expect(old.body.code).toBe(1015);
      expect(await login(api, email, 'NewSecret1')).toBeTruthy();
      const reused = await api.post('/mutenet/password/reset', {
        form: { email, newPwd: 'Other1234', emailCode: code },
      });
      expect(reused.body.code).toBe(1012);
    });

    it('does not take a register code', async () => {
      const api = client();
      const email = newEmail();
      await requestCode(api, email, 'register');
      const code = await latestCode(app, email);
      const { body } = await api.post('/mutenet/password/reset', {
        form: { email, newPwd: 'NewSecret1', emailCode: code },
      });
      expect(body.code).toBe(1012);
    });
  });

  describe('change password', () => {
    it('needs a session', async () => {
      const { status } = await client().post('/mutenet/user/password', {
        form: { oldPwd: PASSWORD, newPwd: 'NewSecret1' },
      });
      expect(status).toBe(401);
    });

    it('checks the new password, then the old one', async () => {
      const api = client();
      const token = await signUp(app, api, newEmail());
      const call = (form: Record<string, string>) => api.post('/mutenet/user/password', { form, token });
      expect((await call({ oldPwd: PASSWORD, newPwd: '' })).body.msg).toBe(en('PASSWORD_BLANK'));
      expect((await call({ oldPwd: PASSWORD, newPwd: 'weak' })).body.msg).toBe(en('PASSWORD_FORMAT'));
      expect((await call({ oldPwd: 'Wrong123', newPwd: 'NewSecret1' })).body).toMatchObject({
        code: 1016,
        msg: en('OLD_PASSWORD_WRONG'),
      });
      expect((await call({ oldPwd: '', newPwd: 'NewSecret1' })).body.code).toBe(1016);
    });

    it('changes it and revokes every session', async () => {
      const api = client();
      const email = newEmail();
      const token = await signUp(app, api, email);
      const other = await login(api, email);
      const { body } = await api.post('/mutenet/user/password', {
        form: { oldPwd: PASSWORD, newPwd: 'NewSecret1' },
        token,
      });
      expect(body).toMatchObject({ code: 0, msg: en('PASSWORD_CHANGED') });
      expect((await api.post('/mutenet/login', { token })).status).toBe(401);
      expect((await api.post('/mutenet/login', { token: other })).status).toBe(401);
      expect(await login(api, email, 'NewSecret1')).toBeTruthy();
    });
  });

  it('never writes a token, a code or a password into the log', async () => {
    const api = client();
    const email = newEmail();
    const token = await signUp(app, api, email);
    await api.post('/mutenet/login', { token });
    const code = await latestCode(app, email);
    const log = app.logs.join('');
    expect(log).toContain('mail written to the outbox');
    expect(log).not.toContain(token);
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toMatch(new RegExp(`\\b${code}\\b`));
  });
});
