import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import pg from 'pg';
import { CurrentSchemaPostgresDialect } from './postgres-dialect.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export type DatabaseHandle = { db: Kysely<Database>; dialect: Dialect };

// int8 (counts of bytes, epoch milliseconds) stays below 2^53, so it is safe to read as a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type DatabaseOptions = {
  /** PostgreSQL only: the schema to work in (tests use one each). */
  searchPath?: string;
  poolSize?: number;
  /** PostgreSQL only: a query with no answer in this time closes its connection (`closeWhenSilent`). */
  queryTimeoutMs?: number;
};

export function dialectOf(url: string): Dialect {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

export function sqliteFileOf(url: string): string {
  return url.slice('sqlite:'.length);
}

/**
 * SQLite transactions take the write lock when they begin. A deferred one that reads first fails at its first write
 * with SQLITE_BUSY when another process (a second worker, the admin command line) wrote meanwhile; an immediate one
 * waits its turn (busy_timeout) instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver() {
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection) {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
    })(this.config);
  }
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
    return { db: new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database }) }), dialect: 'sqlite' };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // A database that does not answer (down, or lost behind a firewall) fails a request in this time with a 503,
    // rather than holding it until the client gives up.
    connectionTimeoutMillis: 3000,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // A dropped connection must not crash the process: the pool reports those it holds idle, and each client those
  // lost while a request holds it (the request's query fails by itself, and the pool then discards the client).
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (options.queryTimeoutMs) closeWhenSilent(client, options.queryTimeoutMs);
  });
  return { db: new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) }), dialect: 'postgres' };
}

/**
 * A query of this connection that has no answer within `timeoutMs` closes the connection. Over a network that drops
 * packets silently (a host lost behind a firewall), a query would otherwise wait for TCP to give up, a quarter of an
 * hour. pg's own `query_timeout` fails the query but keeps the connection, which the pool then hands out again with
 * the lost query still in front of every new one; closed, the connection fails its query (a 503) and the pool makes a
 * new one.
 */
function closeWhenSilent(client: pg.PoolClient, timeoutMs: number) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: typeof query }).query = (...args) => {
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    const silence = setTimeout(() => {
      const error = Object.assign(new Error('Connection terminated: the database did not answer'), {
        code: 'ETIMEDOUT',
      });
      // pg has no public way to drop a connection that does not answer (its `end` waits for an answer).
      (client as unknown as { connection: { stream: { destroy(error: Error): void } } }).connection.stream.destroy(
        error,
      );
    }, timeoutMs);
    return result.finally(() => clearTimeout(silence));
  };
}

/** Throws when the database does not answer. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
