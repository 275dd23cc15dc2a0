import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import pg from 'pg';
import { dropConnection } from './database.js';

/** The keys of the changed rows that one notice names (an empty key: the whole table). */
export type ChangeListener = (keys: readonly string[]) => void;

/**
 * The changes the database reports as they are committed, whoever made them: what lets an instance keep rows in
 * memory (`read-cache.ts`) and still never answer from a row that another instance, the admin command line or an
 * operator's SQL changed.
 */
export interface ChangeFeed {
  /** Every change committed from now on will be heard: only then may anything be kept. */
  readonly live: boolean;
  /**
   * Calls `listener` with the changed rows' keys for each notice of changes to `table`: a statement that changes
   * thousands of rows is heard in a few calls, not one a row.
   */
  onChange(table: string, listener: ChangeListener): void;
  /** Calls `listener` whenever changes may have gone unheard (the feed was lost) and when it is live again. */
  onReset(listener: () => void): void;
}

/**
 * The channel of the current schema's change notices, as an SQL expression: the triggers (migration 0005) name it the
 * same way from their table's schema.
 */
export const CHANGE_CHANNEL_SQL = `'mutenet_' || md5(current_schema())`;

/** The admin command line, and tests of what is read without keeping: no change is heard, so nothing is kept. */
export const UNHEARD: ChangeFeed = { live: false, onChange() {}, onReset() {} };

/** A feed's listeners: what both feeds share. */
abstract class ListenedFeed {
  readonly #byTable = new Map<string, ChangeListener[]>();
  readonly #resets: Array<() => void> = [];

  onChange(table: string, listener: ChangeListener): void {
    const listeners = this.#byTable.get(table);
    if (listeners) listeners.push(listener);
    else this.#byTable.set(table, [listener]);
  }

  onReset(listener: () => void): void {
    this.#resets.push(listener);
  }

  protected changed(table: string, keys: readonly string[]): void {
    const listeners = this.#byTable.get(table);
    if (!listeners) return;
    for (const listener of listeners) listener(keys);
  }

  protected reset(): void {
    for (const listener of this.#resets) listener();
  }
}

export type PostgresChangeFeedOptions = {
  searchPath?: string | undefined;
  /** How often the connection is checked; a check unanswered in this time counts it as lost. */
  heartbeatMs?: number;
  /** How long to wait before connecting again after a loss. */
  retryMs?: number;
};

/**
 * PostgreSQL's notifications (the triggers of migrations 0005–0007) on a connection of the feed's own. The heartbeat
 * is a notification the feed sends itself and must hear back in time, so it proves the whole way a change's notice
 * travels: a lost connection, a silent one, or a pooler that hands the listening session to other clients
 * (PgBouncer's transaction pooling) ends `live` at once, since notices sent meanwhile are lost. The feed connects
 * again and is live once it listens.
 */
export class PostgresChangeFeed extends ListenedFeed implements ChangeFeed {
  live = false;
  readonly #heartbeatMs: number;
  readonly #retryMs: number;
  #client: pg.Client | undefined;
  #channel = '';
  #timer: NodeJS.Timeout | undefined;
  /** The heartbeat the feed waits to hear, and until when. */
  #awaited: { payload: string; silence: NodeJS.Timeout } | undefined;
  #beats = 0;
  /** Tells this feed's heartbeats from other feeds' on the channel. */
  readonly #id = randomUUID();
  #closed = false;

  constructor(
    private readonly url: string,
    private readonly options: PostgresChangeFeedOptions = {},
  ) {
    super();
    this.#heartbeatMs = options.heartbeatMs ?? 5000;
    this.#retryMs = options.retryMs ?? 1000;
    void this.#connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#lose(client);
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    const { searchPath } = this.options;
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: this.#heartbeatMs,
      application_name: 'mutenet changes',
      ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
    });
    this.#client = client;
    client.on('error', () => this.#lose(client));
    client.on('end', () => this.#lose(client));
    client.on('notification', ({ payload }) => this.#heard(payload ?? ''));
    try {
      await client.connect();
      const { rows } = await client.query<{ channel: string }>(`select ${CHANGE_CHANNEL_SQL} as channel`);
      this.#channel = rows[0]!.channel;
      await client.query(`listen "${this.#channel}"`);
    } catch {
      this.#lose(client);
      return;
    }
    if (this.#client !== client) return;
    this.live = true;
    this.reset();
    this.#beat(client);
  }

  #beat(client: pg.Client): void {
    this.#timer = setTimeout(() => {
      // Table names have no colon: no listener takes a heartbeat for a change. Other instances ignore it.
      const payload = `:heartbeat:${this.#id}:${++this.#beats}`;
      this.#awaited = { payload, silence: setTimeout(() => this.#lose(client), this.#heartbeatMs).unref() };
      client.query('select pg_notify($1, $2)', [this.#channel, payload]).catch(() => this.#lose(client));
    }, this.#heartbeatMs);
    this.#timer.unref();
  }

  #heard(payload: string): void {
    if (payload === this.#awaited?.payload) {
      clearTimeout(this.#awaited.silence);
      this.#awaited = undefined;
      if (this.#client) this.#beat(this.#client);
      return;
    }
    const colon = payload.indexOf(':');
    // A statement's notice names each of its rows' keys, joined by commas (migration 0007); no key has a comma.
    this.changed(payload.slice(0, colon), payload.slice(colon + 1).split(','));
  }

  /** Ends `live` and drops the connection (a silent one is destroyed, as `end` would wait on it), then tries again. */
  #lose(client: pg.Client | undefined): void {
    if (!client || this.#client !== client) return;
    this.#client = undefined;
    clearTimeout(this.#timer);
    clearTimeout(this.#awaited?.silence);
    this.#awaited = undefined;
    const wasLive = this.live;
    this.live = false;
    if (wasLive) this.reset();
    if (this.#closed) return;
    dropConnection(client);
    this.#timer = setTimeout(() => void this.#connect(), this.#retryMs);
    this.#timer.unref();
  }
}

/**
 * The changes of the tables PostgreSQL reports (migrations 0005–0007), on SQLite: this connection's own writes are
 * reported by temporary triggers (this connection's alone, so that another process's writes never call a function
 * it lacks) as they are made; every other connection's (the admin command line, other workers) by `data_version`,
 * which moves with each commit of another connection and drops everything kept. Nothing of another transaction can
 * be read meanwhile: the app has one connection, used by one transaction at a time.
 */
const SQLITE_TRIGGERS = [
  { table: 'users', key: 'id', events: ['update', 'delete'] },
  { table: 'sessions', key: 'user_id', events: ['update', 'delete'] },
  { table: 'settings', key: 'key', events: ['insert', 'update', 'delete'] },
  { table: 'catalog_version', key: null, events: ['update'] },
  { table: 'orders', key: 'user_id', events: ['insert', 'update', 'delete'] },
  // Not a push's counters: a call per row costs about 3 ms per 10,000 rows, an eighth of a push. Its repository
  // drops the pushed customers itself.
  {
    table: 'user_packages',
    key: 'user_id',
    events: ['insert', 'delete', 'update of user_id, starts_at, ends_at, ended_at, traffic_total'],
  },
] as const;

/**
 * How long another connection's commit may go unseen by reads from memory: `data_version` is read at most this often.
 * Each read opens a read transaction (two fcntl calls on the WAL index's lock), 5 µs in a quiet process: before every
 * kept read, a tenth of a session check's CPU. Under load, one request in ten or so now reads it. PostgreSQL's notices
 * take about as long to arrive.
 */
export const SQLITE_OUTSIDE_COMMIT_LAG_MS = 1;

export class SqliteChangeFeed extends ListenedFeed implements ChangeFeed {
  readonly #dataVersion: SQLite.Statement<[], number>;
  #seen: number;
  #checkedAt = performance.now();

  constructor(database: SQLite.Database) {
    super();
    database.function('mutenet_changed', { deterministic: false }, (table: unknown, key: unknown) => {
      this.changed(String(table), [key === null ? '' : String(key)]);
      return null;
    });
    for (const { table, key, events } of SQLITE_TRIGGERS) {
      for (const event of events) {
        const row = event === 'insert' ? 'new' : 'old';
        database.exec(`create temp trigger if not exists mutenet_changed_${table}_${event.split(' ')[0]}
          after ${event} on main.${table}
          begin select mutenet_changed('${table}', ${key ? `${row}.${key}` : 'null'}); end`);
      }
    }
    this.#dataVersion = database.prepare<[], number>('pragma data_version').pluck();
    this.#seen = this.#dataVersion.get()!;
  }

  /**
   * Always: reading it catches up first with other connections' commits made until a millisecond ago, which drop
   * everything kept.
   */
  get live(): boolean {
    const now = performance.now();
    if (now - this.#checkedAt < SQLITE_OUTSIDE_COMMIT_LAG_MS) return true;
    this.#checkedAt = now;
    const version = this.#dataVersion.get()!;
    if (version !== this.#seen) {
      this.#seen = version;
      this.reset();
    }
    return true;
  }
}
