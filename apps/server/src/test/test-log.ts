import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A test run's record for the leak scan (`secrets-in-logs.scan.ts`): with MUTENET_TEST_LOG_DIR set (`npm test` sets
 * it), every server the tests start appends its log lines under `logs/`, the test clients append the error answers
 * they get under `answers/`, and the helpers append every secret they handle under `secrets/`. Without it, nothing
 * is written.
 */
export const TEST_LOG_DIR = process.env.MUTENET_TEST_LOG_DIR || undefined;

export const SECRET_KINDS = [
  'password',
  'session token',
  'email code',
  'node token',
  'subscription token',
  'payment sandbox secret',
  'payment gateway secret',
  'metrics token',
] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

/** Shorter values (an empty or one-letter "password" of a hostile-input test) would match ordinary text. */
export const SECRET_MIN_LENGTH = 6;

export type RecordedSecret = { kind: SecretKind; value: string };

function folder(name: 'logs' | 'answers' | 'secrets'): string {
  const dir = path.join(TEST_LOG_DIR!, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Notes a secret a helper handled (a password it sent, a token it received…), so that the scan looks for it. */
export function recordSecret(kind: SecretKind, value: string | null | undefined) {
  if (!TEST_LOG_DIR || !value || value.length < SECRET_MIN_LENGTH) return;
  const line = `${JSON.stringify({ kind, value } satisfies RecordedSecret)}\n`;
  fs.appendFileSync(path.join(folder('secrets'), `${process.pid}.jsonl`), line);
}

/**
 * A new file for one source of lines (a server's log, a client's error answers), or undefined without a run
 * directory. Lines are appended synchronously, so that none is lost when a worker exits.
 */
export function testLogFile(kind: 'logs' | 'answers', name: string): string | undefined {
  if (!TEST_LOG_DIR) return undefined;
  return path.join(folder(kind), `${name}-${process.pid}-${randomBytes(4).toString('hex')}.log`);
}

export function appendTestLog(file: string | undefined, text: string) {
  if (file && text) fs.appendFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}
