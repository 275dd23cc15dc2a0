import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export type DatabaseHandle = { db: Kysely<Database>; dialect: Dialect };

// int8 (counts of bytes, epoch milliseconds) stays below 2^53, so it is safe to read as a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type DatabaseOptions = {
  /** PostgreSQL only: the schema to work in (tests use one each). */
  searchPath?: string;
  poolSize?: number;
};

export function dialectOf(url: string): Dialect {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

export function sqliteFileOf(url: string): string {
  return url.slice('sqlite:'.length);
}

export function openDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  if (dialectOf(url) === 'sqlite') {
    const file = sqliteFileOf(url);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const database = new SQLite(file);
    // WAL lets readers run beside the writer; NORMAL sync is durable across process crashes in WAL mode.
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }), dialect: 'sqlite' };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // A dropped connection must not crash the process; the next query reports the failure.
  pool.on('error', () => {});
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
}

/** Throws when the database does not answer. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
