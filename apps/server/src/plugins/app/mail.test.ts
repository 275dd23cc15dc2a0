import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { MESSAGES } from '@mutenet/contract';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captcha, latestCode, PASSWORD, requestCode } from '../../test/accounts.js';
import { httpClient } from '../../test/http-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

type Received = { mailFrom: string; rcptTo: string[]; raw: string };

/** A mail server on a random loopback port that keeps every message it is given. */
async function startSmtpServer() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The bytes of a quoted-printable or Q-encoded text. */
function decodeQuoted(text: string, underscoreIsSpace: boolean): Buffer {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '=' && /^[0-9A-F]{2}$/i.test(source.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(source.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (char === '_' && underscoreIsSpace) bytes.push(0x20);
    else bytes.push(...Buffer.from(char, 'utf8'));
  }
  return Buffer.from(bytes);
}

/** The headers (unfolded, encoded words decoded) and the decoded text of a single-part message. */
function parseMail(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    const value = line
      .slice(colon + 1)
      .trim()
      // Adjacent encoded words are one text: the space between them is not part of it.
      .replace(/(\?=)\s+(=\?)/g, '$1$2')
      .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_match, encoding: string, data: string) =>
        (encoding.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : decodeQuoted(data, true)).toString('utf8'),
      );
    headers[line.slice(0, colon).toLowerCase()] = value;
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuoted(body, false).toString('utf8')
        : body;
  return { headers, text };
}

const codeOf = (text: string) => text.match(/^\s+(\d{6})\s*$/m)?.[1];

const MAIL_FROM = 'Mutenet Test <no-reply@mutenet.test>';

describe('mail over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let app: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM } });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('sends a register code in pt-BR and a reset code in zh-Hans, each one working, and nothing to the outbox', async () => {
    const email = 'mail.user@example.com';
    const portuguese = httpClient(app.url, { language: 'pt-BR' });
    expect(await requestCode(portuguese, email, 'register')).toMatchObject({
      code: 0,
      msg: MESSAGES.EMAIL_CODE_SENT['pt-BR'],
    });
    expect(smtp.received).toHaveLength(1);
    const register = smtp.received[0]!;
    expect(register.mailFrom).toBe('no-reply@mutenet.test');
    expect(register.rcptTo).toEqual([email]);
    const registerMail = parseMail(register.raw);
    expect(registerMail.headers.from).toBe('Mutenet Test <no-reply@mutenet.test>');
    expect(registerMail.headers.to).toBe(email);
    expect(registerMail.headers.subject).toBe('Seu código de cadastro Mutenet');
    expect(registerMail.text).toContain('Use este código para concluir a criação da sua conta');
    const registerCode = codeOf(registerMail.text);
    expect(registerCode).toMatch(/^\d{6}$/);
    const created = await portuguese.post('/mutenet/register', {
      form: { name: 'Mail User', email, password: PASSWORD, emailCode: registerCode! },
    });
    expect(created.body).toMatchObject({ code: 0, msg: MESSAGES.REGISTERED['pt-BR'] });

    app.clock.advance(61_000);
    const chinese = httpClient(app.url, { language: 'zh-Hans' });
    expect(await requestCode(chinese, email, 'reset_password')).toMatchObject({
      code: 0,
      msg: MESSAGES.EMAIL_CODE_SENT['zh-Hans'],
    });
    expect(smtp.received).toHaveLength(2);
    const reset = smtp.received[1]!;
    expect(reset.mailFrom).toBe('no-reply@mutenet.test');
    expect(reset.rcptTo).toEqual([email]);
    const resetMail = parseMail(reset.raw);
    expect(resetMail.headers.from).toBe('Mutenet Test <no-reply@mutenet.test>');
    expect(resetMail.headers.to).toBe(email);
    expect(resetMail.headers.subject).toBe('您的 Mutenet 密码重置验证码');
    expect(resetMail.text).toContain('请使用以下验证码设置新密码');
    const resetCode = codeOf(resetMail.text);
    expect(resetCode).toMatch(/^\d{6}$/);
    const changed = await chinese.post('/mutenet/password/reset', {
      form: { email, newPwd: 'NewSecret1', emailCode: resetCode! },
    });
    expect(changed.body).toMatchObject({ code: 0, msg: MESSAGES.PASSWORD_RESET['zh-Hans'] });

    expect(await fs.readdir(app.outboxDir).catch(() => [])).toEqual([]);
    const log = app.logs.join('');
    expect(log).not.toContain('mail written to the outbox');
    expect(log).not.toMatch(new RegExp(`\\b(${registerCode}|${resetCode})\\b`));
  });

  it('answers 503 while the mail server is away, and lets the customer ask again at once', async () => {
    const gone = await startSmtpServer();
    await gone.close();
    const offline = await startTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${gone.port}`, MAIL_FROM } });
    try {
      const api = httpClient(offline.url, { language: 'en' });
      const email = 'offline@example.com';
      for (let attempt = 0; attempt < 2; attempt++) {
        const { status, body, headers } = await api.post('/mutenet/verify/code/email?action=register', {
          form: { ...(await captcha(api)), email },
        });
        expect(status).toBe(503);
        expect(body).toEqual({ code: 503, msg: MESSAGES.SERVICE_UNAVAILABLE.en, data: null });
        expect(Number(headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(offline.logs.join('')).not.toContain('unhandled error');
    } finally {
      await offline.close();
    }
  });
});

describe('mail without SMTP', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ env: { MAIL_FROM } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('writes each message as an .eml file in the outbox and logs its name, never the code', async () => {
    const api = httpClient(app.url, { language: 'en' });
    const email = 'outbox.user@example.com';
    expect((await requestCode(api, email)).code).toBe(0);
    const files = await fs.readdir(app.outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d+-[0-9a-f]{8}\.eml$/);
    const file = path.join(app.outboxDir, files[0]!);
    // Only the server's user may read codes.
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);

    const mail = parseMail(await fs.readFile(file, 'utf8'));
    expect(mail.headers.from).toBe(MAIL_FROM);
    expect(mail.headers.to).toBe(email);
    expect(mail.headers.subject).toBe('Your Mutenet registration code');
    const code = codeOf(mail.text);
    expect(code).toMatch(/^\d{6}$/);
    expect(await latestCode(app, email)).toBe(code);

    const lines = app.logs.map((line) => JSON.parse(line) as { msg?: string; file?: string });
    const written = lines.filter((line) => line.msg === 'mail written to the outbox');
    expect(written.map((line) => line.file)).toEqual([file]);
    expect(app.logs.join('')).not.toMatch(new RegExp(`\\b${code}\\b`));
  });
});
