import { randomUUID } from 'node:crypto';
import pg from 'pg';

export type ChangeListener = (key: string) => void;

/**
 * The changes the database reports as they are committed, whoever made them: what lets an instance keep rows in
 * memory (`read-cache.ts`) and still never answer from a row that another instance, the admin command line or an
 * operator's SQL changed.
 */
export interface ChangeFeed {
  /** Every change committed from now on will be heard: only then may anything be kept. */
  readonly live: boolean;
  /** Calls `listener` with the changed row's key for each change to `table` (an empty key: the whole table). */
  onChange(table: string, listener: ChangeListener): void;
  /** Calls `listener` whenever changes may have gone unheard (the feed was lost) and when it is live again. */
  onReset(listener: () => void): void;
}

/** SQLite and the admin command line: no change is ever heard, so nothing may be kept. */
export const UNHEARD: ChangeFeed = { live: false, onChange() {}, onReset() {} };

export type PostgresChangeFeedOptions = {
  searchPath?: string | undefined;
  /** How often the connection is checked; a check unanswered in this time counts it as lost. */
  heartbeatMs?: number;
  /** How long to wait before connecting again after a loss. */
  retryMs?: number;
};

/**
 * PostgreSQL's notifications (migration 0005's triggers) on a connection of the feed's own. The heartbeat is a
 * notification the feed sends itself and must hear back in time, so it proves the whole way a change's notice
 * travels: a lost connection, a silent one, or a pooler that hands the listening session to other clients
 * (PgBouncer's transaction pooling) ends `live` at once, since notices sent meanwhile are lost. The feed connects
 * again and is live once it listens.
 */
export class PostgresChangeFeed implements ChangeFeed {
  live = false;
  readonly #listeners = new Map<string, ChangeListener[]>();
  readonly #resets: Array<() => void> = [];
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
    this.#heartbeatMs = options.heartbeatMs ?? 5000;
    this.#retryMs = options.retryMs ?? 1000;
    void this.#connect();
  }

  onChange(table: string, listener: ChangeListener): void {
    const listeners = this.#listeners.get(table);
    if (listeners) listeners.push(listener);
    else this.#listeners.set(table, [listener]);
  }

  onReset(listener: () => void): void {
    this.#resets.push(listener);
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
      const { rows } = await client.query<{ channel: string }>(`select 'mutenet_' || md5(current_schema()) as channel`);
      this.#channel = rows[0]!.channel;
      await client.query(`listen "${this.#channel}"`);
    } catch {
      this.#lose(client);
      return;
    }
    if (this.#client !== client) return;
    this.live = true;
    this.#reset();
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
    const listeners = this.#listeners.get(payload.slice(0, colon));
    if (!listeners) return;
    // A statement's notice names each of its rows' keys, joined by commas (migration 0007); no key has a comma.
    for (const key of payload.slice(colon + 1).split(',')) {
      for (const listener of listeners) listener(key);
    }
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
    if (wasLive) this.#reset();
    if (this.#closed) return;
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    this.#timer = setTimeout(() => void this.#connect(), this.#retryMs);
    this.#timer.unref();
  }

  #reset(): void {
    for (const listener of this.#resets) listener();
  }
}
