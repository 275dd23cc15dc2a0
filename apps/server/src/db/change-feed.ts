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
 * PostgreSQL's notifications (migration 0005's triggers) on a connection of the feed's own. A lost connection, or
 * one that goes silent (a heartbeat query unanswered), ends `live` at once, since notices sent meanwhile are lost;
 * the feed connects again and is live once it listens.
 */
export class PostgresChangeFeed implements ChangeFeed {
  live = false;
  readonly #listeners = new Map<string, ChangeListener[]>();
  readonly #resets: Array<() => void> = [];
  readonly #heartbeatMs: number;
  readonly #retryMs: number;
  #client: pg.Client | undefined;
  #timer: NodeJS.Timeout | undefined;
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
      ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
    });
    this.#client = client;
    client.on('error', () => this.#lose(client));
    client.on('end', () => this.#lose(client));
    client.on('notification', ({ payload }) => this.#heard(payload ?? ''));
    try {
      await client.connect();
      const { rows } = await client.query<{ channel: string }>(`select 'mutenet_' || md5(current_schema()) as channel`);
      await client.query(`listen "${rows[0]!.channel}"`);
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
      const silence = setTimeout(() => this.#lose(client), this.#heartbeatMs);
      client.query('select 1').then(
        () => {
          clearTimeout(silence);
          if (this.#client === client) this.#beat(client);
        },
        () => this.#lose(client),
      );
    }, this.#heartbeatMs);
    this.#timer.unref();
  }

  #heard(payload: string): void {
    const colon = payload.indexOf(':');
    const listeners = this.#listeners.get(payload.slice(0, colon));
    if (!listeners) return;
    const key = payload.slice(colon + 1);
    for (const listener of listeners) listener(key);
  }

  /** Ends `live` and drops the connection (a silent one is destroyed, as `end` would wait on it), then tries again. */
  #lose(client: pg.Client | undefined): void {
    if (!client || this.#client !== client) return;
    this.#client = undefined;
    clearTimeout(this.#timer);
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
