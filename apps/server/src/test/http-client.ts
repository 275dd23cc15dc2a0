import { randomInt } from 'node:crypto';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { appendTestLog, recordSecret, type SecretKind, testLogFile } from './test-log.js';

export type CallOptions = {
  form?: Record<string, string | string[]>;
  json?: unknown;
  raw?: { body: string | Buffer; type: string };
  token?: string;
  headers?: Record<string, string>;
};

// biome-ignore lint/suspicious/noExplicitAny: tests read envelopes of every shape; each assertion states what it expects
export type CallResult = { status: number; headers: Headers; body: any; text: string };

/** Form and JSON fields that carry a secret, and what the leak scan calls it. */
const SECRET_FIELDS: Record<string, SecretKind> = {
  password: 'password',
  oldPwd: 'password',
  newPwd: 'password',
  repeatPwd: 'password',
  emailCode: 'email code',
};
const SUBSCRIPTION_TOKEN = /\/sub\/([\w-]{43})/g;
// The error answers this process got, for the leak scan (test-log.ts).
const errorAnswers = testLogFile('answers', 'http-client');

/**
 * Records the secrets of a call: the passwords and codes of a form the server accepted (a hostile-input test's
 * garbage is no secret, and is bound to turn up elsewhere), the session token it handed out, and the subscription
 * links in its answer.
 */
function recordSecrets(options: CallOptions, headers: Headers, text: string, accepted: boolean) {
  const fields = options.form ?? (typeof options.json === 'object' && options.json ? options.json : {});
  for (const [name, value] of Object.entries(fields)) {
    const kind = SECRET_FIELDS[name];
    if (accepted && kind && typeof value === 'string') recordSecret(kind, value);
  }
  recordSecret('session token', headers.get('authorization'));
  for (const [, token] of text.matchAll(SUBSCRIPTION_TOKEN)) recordSecret('subscription token', token);
}

/** A fresh client address, so that each test has per-IP limits of its own (the test app trusts X-Forwarded-For). */
export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** Real HTTP calls to a test app, as the panel makes them: form bodies, `Authorization` and `Accept-Language`. */
export function httpClient(baseUrl: string, defaults: { ip?: string; language?: string } = {}) {
  const ip = defaults.ip ?? randomIp();
  async function call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = { 'x-forwarded-for': ip, ...options.headers };
    if (defaults.language && !headers['accept-language']) headers['accept-language'] = defaults.language;
    if (options.token) headers.authorization = options.token;
    let body: string | Buffer | undefined;
    if (options.form) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(options.form)) {
        for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
      }
      body = params.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.raw) {
      body = options.raw.body;
      headers['content-type'] = options.raw.type;
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.includes('json')) parsed = JSON.parse(text);
    const code = (parsed as { code?: unknown } | null)?.code;
    const failed = response.status >= 400 || (typeof code === 'number' && code !== 0);
    recordSecrets(options, response.headers, text, !failed);
    if (failed) appendTestLog(errorAnswers, `${response.status} ${text}`);
    return { status: response.status, headers: response.headers, body: parsed, text };
  }
  return {
    ip,
    call,
    get: (path: string, options?: CallOptions) => call('GET', path, options),
    post: (path: string, options?: CallOptions) => call('POST', path, options),
    put: (path: string, options?: CallOptions) => call('PUT', path, options),
  };
}

export type HttpClient = ReturnType<typeof httpClient>;

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * A GET whose answer comes as its bytes went over the wire, in the encoding they are in (fetch would decode them):
 * for what a client that asks for brotli or gzip is sent.
 */
export function getRaw(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

/** An answer's text, decoded from the encoding it came in. */
export function decoded({ headers, body }: RawResponse): string {
  const encoding = headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return gunzipSync(body).toString();
  if (encoding) throw new Error(`unexpected content-encoding ${encoding}`);
  return body.toString();
}
