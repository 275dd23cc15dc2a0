import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { runAdmin } from '../cli/run-admin.js';
import { POSTGRES_URL, type TestDatabase, withPostgres } from './test-app.js';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const ENTRY = 'apps/server/src/cli/admin.ts';

export type AdminRun = { status: number; stdout: string; stderr: string };

/** `admin <args>` as a real child process on the database, from the sources (tsx), with only the env it needs. */
export function admin(databaseUrl: string, ...args: string[]): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', ENTRY, ...args],
      {
        cwd: ROOT,
        timeout: 60_000,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: os.homedir(),
          TMPDIR: os.tmpdir(),
          NODE_ENV: 'test',
          DATABASE_URL: databaseUrl,
        },
      },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

/**
 * `admin <args>` in this process (runAdmin, as admin.ts calls it) on the database, with `env` added to the
 * configuration: the same exit status and output as the child process, in a fraction of the time.
 */
export function adminInProcess(
  databaseUrl: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<AdminRun> {
  // One at a time, even when a test starts several at once: in one process, a second SQLite connection waiting for
  // the write lock blocks the event loop that the first needs to finish its transaction.
  const run = inProcessQueue.then(() => runInProcess(databaseUrl, args, env));
  inProcessQueue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

let inProcessQueue: Promise<void> = Promise.resolve();

async function runInProcess(databaseUrl: string, args: string[], env: Record<string, string>): Promise<AdminRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (text: string) => void out.push(text), err: (text: string) => void err.push(text) };
  const status = await runAdmin(args, io, { NODE_ENV: 'test', DATABASE_URL: databaseUrl, ...env });
  return { status, stdout: out.join(''), stderr: err.join('') };
}

/** The JSON document of a run that must succeed. */
// biome-ignore lint/suspicious/noExplicitAny: a document the test then checks field by field
export function jsonOf(run: AdminRun): any {
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(run.stdout);
}

/** A run that must fail with this status and a single line on standard error matching `message`, printing nothing. */
export function expectFailure(run: AdminRun, status: 1 | 2, message: RegExp) {
  expect({ status: run.status, stdout: run.stdout }).toEqual({ status, stdout: '' });
  expect(run.stderr).toMatch(/^admin: [^\n]+\n$/);
  expect(run.stderr).toMatch(message);
}

/**
 * A fresh, empty database for the command line and a test app to share: a temporary SQLite file, or a PostgreSQL
 * schema of its own, chosen in the URL as an operator would (`?options=-c search_path=…`).
 */
export async function adminDatabase(kind: TestDatabase): Promise<{ url: string; drop(): Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-admin-'));
    return { url: `sqlite:${path.join(dir, 'admin.db')}`, drop: () => fs.rm(dir, { recursive: true, force: true }) };
  }
  if (!POSTGRES_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `cli_${randomBytes(6).toString('hex')}`;
  await withPostgres((client) => client.query(`create schema ${schema}`));
  const options = `options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    url: `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}${options}`,
    drop: () => withPostgres((client) => client.query(`drop schema ${schema} cascade`)).then(() => undefined),
  };
}
