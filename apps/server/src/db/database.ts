import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import pg from 'pg';
import { CurrentSchemaPostgresDialect } from './postgres-dialect.js';
import { runPrepared } from './postgres-statements.js';
import { type RowMaker, rowMaker } from './row-maker.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** `sqlite`: the SQLite connection itself, for what works below Kysely (the change feed's triggers). */
export type DatabaseHandle = { db: Kysely<Database>; dialect: Dialect; sqlite?: SQLite.Database };

// int8 (counts of bytes, epoch milliseconds) stays below 2^53, so it is safe to read as a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type DatabaseOptions = {
  /** PostgreSQL only: the schema to work in (tests use one each). */
  searchPath?: string;
  poolSize?: number;
  /** PostgreSQL only: a query with no answer in this time closes its connection (`wrapQueries`). */
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
    // SQLite's default page cache is 2 MB: a push of 10,000 users' traffic, or the feed's lookups spread over 100,000
    // customers, read the same index and table pages again through the kernel. Up to 64 MiB is kept instead (a
    // process's own cache, filled only as pages are read, and emptied whenever another connection writes).
    database.pragma(`cache_size = ${-SQLITE_CACHE_KIB}`);
    keepPreparedStatements(database);
    const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database }) });
    sqliteConnections.set(db, database);
    return { db, dialect: 'sqlite', sqlite: database };
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
    wrapQueries(client, options.queryTimeoutMs);
  });
  return { db: new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) }), dialect: 'postgres' };
}

/** Each SQLite Kysely instance's connection, for the reads that run on it directly (`readsAtOnce`). */
const sqliteConnections = new WeakMap<object, SQLite.Database>();

/** A read run at once, or undefined when it must go through Kysely (its answer as Kysely's `executeQuery` gives it). */
export type ReadAtOnce = <Row>(query: CompiledQuery<Row>) => Promise<QueryResult<Row>> | undefined;

/**
 * On SQLite, a read that runs on the connection at once, outside Kysely: its driver takes the one connection through
 * a lock and half a dozen awaits for each query, half as much again as SQLite's own work on a small kept read (4.1
 * against 2.6 µs in one process). Only while no transaction is open on the connection (another request's, across its
 * awaits), whose writes a read must not see before they are committed: the read then goes through Kysely, and waits
 * its turn as before. Undefined for PostgreSQL and for a transaction's own Kysely instance.
 */
export function readsAtOnce(db: object): ReadAtOnce | undefined {
  const database = sqliteConnections.get(db);
  if (!database) return undefined;
  return <Row>(query: CompiledQuery<Row>) => {
    if (database.inTransaction) return undefined;
    const statement = database.prepare(query.sql);
    if (!statement.reader) return undefined;
    return Promise.resolve({ rows: statement.all(...query.parameters) as Row[] });
  };
}

/**
 * Each query of a connection: a registered text goes as its named prepared statement (`runPrepared`), and a query
 * that has no answer within `timeoutMs` closes the connection. Over a network that drops packets silently (a host
 * lost behind a firewall), a query would otherwise wait for TCP to give up, a quarter of an hour, and the connection
 * would stay stuck even once the network came back; closed, it fails its query (a 503) and the pool makes a new one.
 */
function wrapQueries(client: pg.PoolClient, timeoutMs: number | undefined) {
  type Query = (...args: unknown[]) => unknown;
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (...args) => {
    const [text, values] = args;
    const result = (typeof text === 'string' && runPrepared(client, query, text, values)) || query(...args);
    if (!timeoutMs || !(result instanceof Promise)) return result;
    const silence = setTimeout(() => {
      dropConnection(
        client,
        Object.assign(new Error('Connection terminated: the database did not answer'), { code: 'ETIMEDOUT' }),
      );
    }, timeoutMs);
    return result.finally(() => clearTimeout(silence));
  };
}

/**
 * Closes a PostgreSQL connection's socket at once, failing what it was running with `error`: pg has no public way to
 * drop a connection that does not answer (its `end` waits for an answer), and its own query timeout does the same.
 */
export function dropConnection(client: pg.ClientBase, error?: Error): void {
  (client as unknown as { connection: { stream: { destroy(error?: Error): void } } }).connection.stream.destroy(error);
}

/** The most a SQLite connection keeps of the database's pages in memory, in KiB. */
const SQLITE_CACHE_KIB = 64 * 1024;

/** How many prepared statements a SQLite connection keeps: far more than the app's distinct query texts. */
const PREPARED_STATEMENTS = 1000;

/**
 * A statement that changes the schema, as a migration's. A temporary table or trigger (a push's) is not one: no kept
 * statement can have read a name that did not exist, and the app's temporary names shadow none of its tables.
 */
const SCHEMA_CHANGE = /^\s*(create(?!\s+temp(orary)?\s)|alter|drop)\b/i;

/**
 * Kysely prepares every query anew, and preparing (parsing and planning) costs SQLite more than running a small
 * query: each query text is prepared once and its statement reused. Statements run synchronously, one at a time,
 * so one statement is never used by two queries at once. SQLite re-prepares a kept one itself after a schema change,
 * but the rows' columns were read when it was prepared (`readRowsAsArrays`): a change of the schema on this
 * connection lets go of every kept statement, and is itself not kept.
 */
function keepPreparedStatements(database: SQLite.Database) {
  const prepare = database.prepare.bind(database);
  const kept = new Map<string, SQLite.Statement>();
  database.prepare = ((source: string) => {
    let statement = kept.get(source);
    if (statement) return statement;
    statement = prepare(source);
    if (SCHEMA_CHANGE.test(source)) {
      kept.clear();
      return statement;
    }
    if (statement.reader) readRowsAsArrays(statement);
    // Oldest first out: query texts that vary (lists of ids) must not grow the map without end.
    if (kept.size >= PREPARED_STATEMENTS) kept.delete(kept.keys().next().value!);
    kept.set(source, statement);
    return statement;
  }) as SQLite.Database['prepare'];
}

/**
 * better-sqlite3 makes each row's object in C++, looking every column's name up in V8's string table and adding the
 * properties one at a time (a seventh of the orders list's time). A statement's `all` instead reads its rows as
 * arrays and makes each object with a function written for the statement's columns (`rowMaker`). The columns are
 * those of the schema the statement was prepared on; another process's change of the schema that adds or drops
 * columns is seen by their count, which reads them again.
 */
function readRowsAsArrays(statement: SQLite.Statement) {
  const all = statement.all.bind(statement);
  let columnCount = 0;
  let makeRow: RowMaker = () => ({});
  const readColumns = () => {
    const names = statement.columns().map((column) => column.name);
    columnCount = names.length;
    makeRow = rowMaker(names);
  };
  readColumns();
  statement.all = ((...parameters: unknown[]) => {
    statement.raw(true);
    let rows: unknown[][];
    try {
      rows = all(...parameters) as unknown[][];
    } finally {
      statement.raw(false);
    }
    if (rows.length > 0 && rows[0]!.length !== columnCount) readColumns();
    const made: unknown[] = new Array(rows.length);
    for (let index = 0; index < rows.length; index++) made[index] = makeRow(rows[index]!);
    return made;
  }) as SQLite.Statement['all'];
}

/** Throws when the database does not answer. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
