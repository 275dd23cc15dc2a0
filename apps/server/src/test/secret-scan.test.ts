import { describe, expect, it } from 'vitest';
import { SecretScanner } from './secret-scan.js';

const SESSION = 'kq1Jm8c0x_Z3uVh2pQeT9w-LrA7sYdN4oBfG6iK5Ejc';
const PASSWORD = 'Pa ss&wörd"9';
const CODE = '482913';
const scanner = new SecretScanner([
  { kind: 'session token', value: SESSION },
  { kind: 'password', value: PASSWORD },
  { kind: 'email code', value: CODE },
]);

const formsFound = (text: string) => scanner.scan(text).map(({ kind, form }) => `${kind}/${form}`);

describe('the leak scan', () => {
  it('finds a secret as it is, URL-, form- and JSON-encoded, and in base64 however it is aligned', () => {
    const base64 = (prefix: string) => Buffer.from(`${prefix}${SESSION}`).toString('base64');
    const lines = [
      `{"msg":"token ${SESSION}"}`,
      `{"url":"/login?p=${encodeURIComponent(PASSWORD)}"}`,
      `body=${new URLSearchParams({ p: PASSWORD }).toString().slice(2)}`,
      `{"password":${JSON.stringify(PASSWORD)}}`,
      `basic ${base64('')}`,
      `basic ${base64('u:')}`,
      `basic ${base64('user:')}`,
      `{"code":"${CODE}"}`,
      `code=${Buffer.from(CODE).toString('base64')}`,
    ];
    expect(lines.map(formsFound)).toEqual([
      ['session token/raw'],
      ['password/URL-encoded'],
      ['password/form-encoded'],
      ['password/JSON-escaped'],
      ['session token/base64'],
      ['session token/base64'],
      ['session token/base64'],
      ['email code/raw'],
      ['email code/base64'],
    ]);
  });

  it('counts a short secret only where it stands alone, not inside a number or a word', () => {
    const innocent = [
      `{"time":17120${CODE}01,"responseTime":0.${CODE}}`,
      `{"pid":${CODE},"reqId":"a${CODE}b"}`,
      `{"port":${CODE}1}`,
    ];
    expect(innocent.flatMap(formsFound)).toEqual([]);
    expect(formsFound(`sent ${CODE} to the user`)).toEqual(['email code/raw']);
  });

  it('names the line and the kind, and masks the secret in the excerpt', () => {
    const [finding] = scanner.scan(`first line\nAuthorization: ${SESSION} (${encodeURIComponent(PASSWORD)})`);
    expect(finding).toEqual({
      line: 2,
      kind: 'session token',
      form: 'raw',
      excerpt: 'Authorization: [session token] ([password])',
    });
  });
});
