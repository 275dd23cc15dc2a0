import type { MaybePromise } from '../lib/maybe-promise.js';
import type { ChangeFeed } from './change-feed.js';

/**
 * A row a value was read from: its table, and its key as the change feed reports it for that table (an id, or `''`
 * for the whole table).
 */
export type Row = readonly [table: string, key: string | number];

/** What a value was read from: its rows, and the time after which it is no longer true by itself (an expiry). */
export type ReadFrom = { rows: readonly Row[]; until?: number };

export type ReadCacheOptions = {
  /** The tables the values are read from: a change to any of them may drop kept values. */
  tables: readonly string[];
  maxEntries: number;
  /** A value is read again after this time at the latest, heard change or not. */
  maxAgeMs: number;
};

type Entry<V> = { value: V; rows: readonly Row[]; until: number };

/** The keys read from each row of a table, by the row's key: one key as it is (almost every row), a set of several. */
type KeysByRow = Map<string | number, string | Set<string>>;

const INTEGER = /^(?:0|-?[1-9]\d{0,14})$/;

/**
 * A row's key as it is kept: an integer as a number, whether the app gives it so or the feed as text (PostgreSQL's
 * notices are text). Not every key as text: a push looks up thousands of ids, and making each one's text cost more
 * than the lookup.
 */
const rowKeyOf = (key: string | number): string | number =>
  typeof key === 'number' || !INTEGER.test(key) ? key : Number(key);

/**
 * Values read from the database, kept in memory while the change feed is live and dropped as soon as it reports a
 * change to one of their rows, or when it was lost. While the feed is not live every read goes to the database.
 * A read that was under way when a change was heard is not kept: it may have read the row before the change.
 */
export class ReadCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  /**
   * By table, then by row key (`rowKeyOf`). Not by one `table:key` string: a push drops thousands of rows, and such
   * a string, made anew for each, cost V8 several times the lookup of a short numeric one.
   */
  readonly #keysByRow = new Map<string, KeysByRow>();
  /** Moves with every change heard and every loss: a read begun before it moved is not kept. */
  #generation = 0;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly options: ReadCacheOptions,
  ) {
    for (const table of options.tables) {
      this.#keysByRow.set(table, new Map());
      feed.onChange(table, (keys) => this.forgetRows(table, keys));
    }
    feed.onReset(() => this.clear());
  }

  /**
   * The kept value of `key` (at once), or what `load` reads, kept with what `readFrom` says it was read from (nothing
   * is kept where it says undefined). While the feed is not live, `load`'s own answer, with nothing added.
   */
  read(
    key: string,
    now: number,
    load: () => Promise<V>,
    readFrom: (value: V) => ReadFrom | undefined,
  ): MaybePromise<V> {
    if (!this.feed.live) return load();
    const kept = this.#kept(key, now);
    return kept ? kept.value : this.#readAndKeep(key, now, load, readFrom);
  }

  /** The kept value of `key`, if there is one, without reading anything. */
  peek(key: string, now: number): V | undefined {
    return this.feed.live ? this.#kept(key, now)?.value : undefined;
  }

  #kept(key: string, now: number): Entry<V> | undefined {
    const kept = this.#entries.get(key);
    if (!kept || kept.until > now) return kept;
    this.#delete(key, kept);
    return undefined;
  }

  async #readAndKeep(key: string, now: number, load: () => Promise<V>, readFrom: (value: V) => ReadFrom | undefined) {
    const generation = this.#generation;
    const value = await load();
    const from = readFrom(value);
    // `live` first: on SQLite, reading it catches up with another connection's commit made since the load read, and
    // that moves the generation.
    if (from && this.feed.live && generation === this.#generation) this.#keep(key, value, from, now);
    return value;
  }

  /** Drops what was read from the row: for this instance's own writes, without waiting for the feed's notice. */
  forgetRow(table: string, rowKey: string | number): void {
    this.forgetRows(table, [rowKey]);
  }

  /** Drops what was read from these rows of one table: a push's thousands, the table looked up once. */
  forgetRows(table: string, rowKeys: Iterable<string | number>): void {
    this.#generation++;
    const byRow = this.#rowsOf(table);
    // Nothing kept from the table (an instance no customer has called lately): no row to look up.
    if (byRow.size === 0) return;
    for (const rowKey of rowKeys) {
      const keys = byRow.get(rowKeyOf(rowKey));
      // Almost every row has one key: no array made for each.
      if (typeof keys === 'string') this.#drop(keys);
      else if (keys) for (const key of keys) this.#drop(key);
    }
  }

  /** Drops one kept value, as `forgetRow` drops a row's. */
  forget(key: string): void {
    this.#generation++;
    this.#drop(key);
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (entry) this.#delete(key, entry);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
    for (const rows of this.#keysByRow.values()) rows.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  #keep(key: string, value: V, { rows, until = Number.POSITIVE_INFINITY }: ReadFrom, now: number): void {
    for (const [table] of rows) this.#rowsOf(table);
    const previous = this.#entries.get(key);
    if (previous) this.#delete(key, previous);
    // Oldest first out: the entries stay within their bound whatever the traffic.
    if (this.#entries.size >= this.options.maxEntries) this.#dropOldest();
    this.#entries.set(key, { value, rows, until: Math.min(until, now + this.options.maxAgeMs) });
    for (const [table, rowKey] of rows) {
      const byRow = this.#rowsOf(table);
      const row = rowKeyOf(rowKey);
      const keys = byRow.get(row);
      if (keys === undefined || keys === key) byRow.set(row, key);
      else if (typeof keys === 'string') byRow.set(row, new Set([keys, key]));
      else keys.add(key);
    }
  }

  /**
   * Drops the oldest sixteenth of the entries in one pass. Dropped one at a time, each found the oldest through
   * `keys().next()`, which walks past every entry deleted since V8 last compacted the map: 13 µs a drop at 50,000
   * entries (the feed's links), against 0.3 µs a drop this way.
   */
  #dropOldest(): void {
    let count = Math.ceil(this.options.maxEntries / 16);
    for (const [key, entry] of this.#entries) {
      if (count-- === 0) return;
      this.#delete(key, entry);
    }
  }

  #delete(key: string, entry: Entry<V>): void {
    this.#entries.delete(key);
    for (const [table, rowKey] of entry.rows) {
      const byRow = this.#rowsOf(table);
      const row = rowKeyOf(rowKey);
      const keys = byRow.get(row);
      if (keys === key) byRow.delete(row);
      else if (typeof keys === 'object') {
        keys.delete(key);
        if (keys.size === 1) byRow.set(row, keys.values().next().value!);
      }
    }
  }

  /** A row of a table the cache does not hear of could never be dropped for a change: a mistake in the caller. */
  #rowsOf(table: string): KeysByRow {
    const byRow = this.#keysByRow.get(table);
    if (!byRow) throw new Error(`ReadCache: the table ${table} is not among the tables it was given`);
    return byRow;
  }
}
