import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from '../test/tcp-proxy.js';
import { POSTGRES_URL } from '../test/test-app.js';
import { openDatabase } from './database.js';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

/**
 * A process of its own that runs, once told to go, transactions that read and then write (as a payment's does) for
 * a while, and reports how many committed and which failed.
 */
const WRITER = `
import { sql } from 'kysely';
import { openDatabase } from ${JSON.stringify(path.join(import.meta.dirname, 'database.ts'))};
import { inTransaction } from ${JSON.stringify(path.join(import.meta.dirname, 'transaction.ts'))};
const { db } = openDatabase(process.env.DATABASE_URL);
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
let committed = 0;
const failures = [];
const until = Date.now() + 700;
while (Date.now() < until) {
  try {
    await inTransaction(db, async (tx) => {
      const { rows } = await sql\`select count(*) as n from hits\`.execute(tx);
      await sql\`insert into hits (seen) values (\${rows[0].n})\`.execute(tx);
    });
    committed++;
  } catch (error) {
    failures.push(error.code ?? error.message);
  }
}
await db.destroy();
process.stdout.write(JSON.stringify({ committed, failures }) + '\\n');
`;

describe('SQLite written by several processes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-sqlite-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('queues transactions that read before they write instead of failing them with SQLITE_BUSY', async () => {
    const url = `sqlite:${path.join(dir, 'shared.db')}`;
    const setup = openDatabase(url);
    await sql`create table hits (id integer primary key, seen integer not null)`.execute(setup.db);

    const writers = [1, 2].map(() => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', WRITER], {
        cwd: SERVER_DIR,
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: url },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const ready = new Promise<void>((resolve) =>
        child.stdout.on('data', () => output.includes('ready') && resolve()),
      );
      const done = once(child, 'exit').then(([code]) => ({ code, output }));
      return { child, ready, done };
    });
    await Promise.all(writers.map((writer) => writer.ready));
    for (const writer of writers) writer.child.stdin.end('go\n');

    const reports = [];
    for (const { done } of writers) {
      const { code, output } = await done;
      expect(code).toBe(0);
      reports.push(JSON.parse(output.split('\n').at(-2)!) as { committed: number; failures: string[] });
    }
    for (const report of reports) {
      expect(report.failures).toEqual([]);
      expect(report.committed).toBeGreaterThan(0);
    }
    const { rows } = await sql<{ n: number }>`select count(*) as n from hits`.execute(setup.db);
    expect(rows[0]!.n).toBe(reports[0]!.committed + reports[1]!.committed);
    await setup.db.destroy();
  });
});

describe('SQLite settings', () => {
  it('opens a file in WAL mode, with foreign keys checked', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-settings-'));
    const { db } = openDatabase(`sqlite:${path.join(dir, 'settings.db')}`);
    const read = async (pragma: string) => Object.values((await sql.raw(`pragma ${pragma}`).execute(db)).rows[0]!)[0];
    expect(await read('journal_mode')).toBe('wal');
    expect(await read('foreign_keys')).toBe(1);
    await db.destroy();
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe.runIf(POSTGRES_URL)('PostgreSQL with a query time-out', () => {
  it('gives up on a connection that goes silent in a query, and runs the next one on a new connection', async () => {
    const { hostname, port } = new URL(POSTGRES_URL!);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    const { db } = openDatabase(proxy.urlFor(POSTGRES_URL!), { poolSize: 1, queryTimeoutMs: 500 });
    try {
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
      await proxy.cut('silence');
      const started = performance.now();
      await expect(sql`select 2`.execute(db)).rejects.toMatchObject({ code: 'ETIMEDOUT' });
      expect(performance.now() - started).toBeLessThan(2000);
      await proxy.restore();
      expect((await sql<{ two: number }>`select 2 as two`.execute(db)).rows).toEqual([{ two: 2 }]);
    } finally {
      await db.destroy();
      await proxy.close();
    }
  });
});
