import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SecretScanner } from './secret-scan.js';
import { type RecordedSecret, SECRET_KINDS, type SecretKind, TEST_LOG_DIR } from './test-log.js';

/*
 * The leak scan, which `npm test` runs after every other suite: no log line of any server the tests started, and no
 * error answer the tests got, holds a secret the test helpers handled. Alone, after the server suites:
 *   MUTENET_TEST_LOG_DIR=/tmp/run npx vitest run --project server
 *   MUTENET_TEST_LOG_DIR=/tmp/run npx vitest run --config apps/server/vitest.log-scan.config.ts
 */

/**
 * About a third of what the server suites alone produce (17,000 lines in 60 files; 280 session tokens, 220 email
 * codes, 80 node tokens, 30 subscription tokens; most accounts share one password), so that a scan of (next to)
 * nothing fails.
 */
const MIN_LINES = 5_000;
const MIN_LOG_FILES = 20;
const MIN_SECRETS: Record<SecretKind, number> = {
  password: 3,
  'session token': 100,
  'email code': 50,
  'node token': 20,
  'subscription token': 10,
  'payment sandbox secret': 1,
  // Stripe's key and webhook secret, Mercado Pago's token and secret, BTCPay's key and secret.
  'payment gateway secret': 6,
  'metrics token': 1,
};

type Run = { secrets: RecordedSecret[]; files: string[] };

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((name) => path.join(dir, name));
}

/** The secrets recorded (each value once), and the files of log lines and error answers, of the run in `dir`. */
function readRun(dir: string): Run {
  const secrets = new Map<string, RecordedSecret>();
  for (const file of filesUnder(path.join(dir, 'secrets'))) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      const secret = JSON.parse(line) as RecordedSecret;
      if (!secrets.has(secret.value)) secrets.set(secret.value, secret);
    }
  }
  const files = [...filesUnder(path.join(dir, 'logs')), ...filesUnder(path.join(dir, 'answers'))];
  return { secrets: [...secrets.values()], files };
}

describe('secrets in the logs and error answers of this test run', () => {
  let run: Run;
  beforeAll(() => {
    if (!TEST_LOG_DIR) throw new Error('MUTENET_TEST_LOG_DIR is not set: run the suites to scan with it first');
    run = readRun(TEST_LOG_DIR);
  });

  it('has enough to scan: log files, lines, and secrets of every kind', () => {
    const lines = run.files.reduce((count, file) => count + fs.readFileSync(file, 'utf8').split('\n').length - 1, 0);
    const logFiles = run.files.filter((file) => path.basename(path.dirname(file)) === 'logs').length;
    const counts = Object.fromEntries(
      SECRET_KINDS.map((kind) => [kind, run.secrets.filter((secret) => secret.kind === kind).length]),
    );
    expect(logFiles).toBeGreaterThanOrEqual(MIN_LOG_FILES);
    expect(lines).toBeGreaterThanOrEqual(MIN_LINES);
    for (const kind of SECRET_KINDS) expect(counts[kind], kind).toBeGreaterThanOrEqual(MIN_SECRETS[kind]);
  });

  it('finds none of them, in any form, in any line', () => {
    const scanner = new SecretScanner(run.secrets);
    const leaks = run.files.flatMap((file) =>
      scanner
        .scan(fs.readFileSync(file, 'utf8'))
        .map(
          ({ line, kind, form, excerpt }) =>
            `${path.relative(TEST_LOG_DIR!, file)}:${line}: ${kind} (${form}) in: ${excerpt}`,
        ),
    );
    expect(leaks).toEqual([]);
  });
});
