import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { HttpClient } from './http-client.js';
import { CAPTCHA_TEST_CODE, type TestApp } from './test-app.js';
import { recordSecret } from './test-log.js';

export const PASSWORD = 'Secret123';

/** A live captcha's id, answered with the test code. */
export async function captcha(api: HttpClient): Promise<{ imgId: string; imgCode: string }> {
  const { body } = await api.get('/mutenet/verify/code/img');
  expect(body.code).toBe(0);
  return { imgId: body.data.imgId, imgCode: CAPTCHA_TEST_CODE };
}

/** Every mail in the outbox to an address, oldest first, as raw text. */
export async function mailsTo(app: TestApp, email: string): Promise<string[]> {
  const files = (await fs.readdir(app.outboxDir).catch(() => [] as string[])).sort();
  const mails = await Promise.all(files.map((file) => fs.readFile(path.join(app.outboxDir, file), 'utf8')));
  return mails.filter((mail) => mail.toLowerCase().includes(`to: ${email.toLowerCase()}`));
}

/** The 6-digit code of the newest mail to an address. */
export async function latestCode(app: TestApp, email: string): Promise<string> {
  const mails = await mailsTo(app, email);
  const code = mails.at(-1)?.match(/^\s+(\d{6})\s*$/m)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  recordSecret('email code', code);
  return code;
}

export async function requestCode(api: HttpClient, email: string, action: 'register' | 'reset_password' = 'register') {
  const { body } = await api.post(`/mutenet/verify/code/email?action=${action}`, {
    form: { ...(await captcha(api)), email },
  });
  return body;
}

/** Registers through the real calls, reading the code from the outbox. */
export async function registerUser(app: TestApp, api: HttpClient, email: string, password = PASSWORD) {
  expect((await requestCode(api, email)).code).toBe(0);
  const { body } = await api.post('/mutenet/register', {
    form: { name: 'Test User', email, password, emailCode: await latestCode(app, email) },
  });
  expect(body).toMatchObject({ code: 0 });
}

/** Logs in and returns the session token from the `authorization` header. */
export async function login(api: HttpClient, email: string, password = PASSWORD): Promise<string> {
  const response = await api.post('/mutenet/login', { form: { email, password, ...(await captcha(api)) } });
  expect(response.body).toMatchObject({ code: 0, data: { user: email.toLowerCase() } });
  const token = response.headers.get('authorization');
  if (!token) throw new Error('no token in the authorization header');
  return token;
}

/** A registered, logged-in customer. */
export async function signUp(app: TestApp, api: HttpClient, email: string, password = PASSWORD) {
  await registerUser(app, api, email, password);
  return login(api, email, password);
}
