import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('SQLite rows', () => {
  it('reads the same objects as the driver makes, keys in order, after the schema changes too', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-rows-'));
    const file = path.join(dir, 'rows.db');
    const { db } = openDatabase(`sqlite:${file}`);
    const driver = new SQLite(':memory:');
    const setUp = [
      'create table t (id integer primary key, name text, score real, data blob, "a b" text)',
      `insert into t values (1, 'ä "q"', 1.5, x'00ff', null), (2, null, -3, null, 'x')`,
    ];
    for (const statement of setUp) {
      await sql.raw(statement).execute(db);
      driver.exec(statement);
    }
    const queries = [
      'select * from t order by id',
      'select id, name as id, data from t order by id',
      'select count(*) as n from t where id > 5',
      'select * from t where id > 5',
    ];
    const read = async () => {
      for (const query of queries) {
        const rows = (await sql.raw(query).execute(db)).rows;
        const expected = driver.prepare(query).all();
        expect(rows, query).toEqual(expected);
        expect(
          rows.map((row) => Object.keys(row as object)),
          query,
        ).toEqual(expected.map((row) => Object.keys(row as object)));
        for (const row of rows) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      }
    };
    await read();
    for (const statement of ['alter table t rename column score to points', 'alter table t add column extra text']) {
      await sql.raw(statement).execute(db);
      driver.exec(statement);
      await read();
    }
    // Another process's change: seen by the count of columns.
    const other = new SQLite(file);
    other.exec('alter table t drop column extra');
    driver.exec('alter table t drop column extra');
    other.close();
    await read();
    // Where the driver would set the prototype, the column is a property like any other.
    const { rows } = await sql.raw(`select 1 as "__proto__", null as "__proto__"`).execute(db);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(rows[0], '__proto__')?.value).toBeNull();
    driver.close();
    await db.destroy();
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe('SQLite settings', () => {
  it('opens a file in WAL mode with a page cache of 64 MiB, not the default 2 MB', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-settings-'));
    const { db } = openDatabase(`sqlite:${path.join(dir, 'settings.db')}`);
    const read = async (pragma: string) => Object.values((await sql.raw(`pragma ${pragma}`).execute(db)).rows[0]!)[0];
    expect(await read('journal_mode')).toBe('wal');
    // Negative: a size in KiB rather than in pages.
    expect(await read('cache_size')).toBe(-64 * 1024);
    await db.destroy();
    await fs.rm(dir, { recursive: true, force: true });
  });
});
