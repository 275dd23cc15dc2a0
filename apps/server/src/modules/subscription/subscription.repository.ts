import { type RawBuilder, sql } from 'kysely';
import { BatchedLookup } from '../../db/batched-lookup.js';
import { type ChangeFeed, UNHEARD } from '../../db/change-feed.js';
import { isPostgres } from '../../db/column-types.js';
import { type CompiledOnce, compiledOnce } from '../../db/compiled-query.js';
import { ReadCache, type Row } from '../../db/read-cache.js';
import { type Executor, whenCommitted } from '../../db/transaction.js';
import type { MaybePromise } from '../../lib/maybe-promise.js';

export type UserPackageRow = {
  id: number;
  user_id: number;
  order_id: number;
  plan_id: number;
  package_id: number;
  plan_group: 'traffic' | 'durational';
  traffic_total: number;
  traffic_used: number;
  upload_used: number;
  download_used: number;
  period: number;
  days: number;
  starts_at: number;
  ends_at: number;
};

/** Bytes one user used on one node, already multiplied by the node's rate. */
export type TrafficEntry = { userId: number; upload: number; download: number };

export type SubscriberRow = { id: number; uuid: string; banned: number; sub_nonce: string | null };

/** What a package's usage is worked out from. */
const COUNTER_COLUMNS = [
  'plan_group',
  'traffic_total',
  'traffic_used',
  'upload_used',
  'download_used',
  'period',
  'starts_at',
  'ends_at',
] as const;
export type PackageCounters = Pick<UserPackageRow, (typeof COUNTER_COLUMNS)[number]>;

/** A customer read by a subscription token, with one of their live packages (or none: a customer without one). */
type SubscriberPackageRow = Pick<SubscriberRow, 'id' | 'uuid' | 'banned'> & { package_id: number | null } & {
  [Column in keyof PackageCounters]: PackageCounters[Column] | null;
};

/** A subscription token's customer, with the package running now, if any. */
export type SubscriberWithPackage = Pick<SubscriberRow, 'id' | 'uuid' | 'banned'> & { running?: PackageCounters };

/** A durational package's allowance renews every 30 days from its start. */
export const PERIOD_MS = 30 * 24 * 3600_000;

export type NewUserPackage = Omit<UserPackageRow, 'id' | 'traffic_used' | 'upload_used' | 'download_used' | 'period'>;

const COLUMNS = ['id', 'user_id', 'order_id', 'plan_id', 'package_id', 'days', ...COUNTER_COLUMNS] as const;

/** The period a package is in at `now`, in SQL: 0 for traffic packages. */
const currentPeriod = (now: number) =>
  // better-sqlite3 binds numbers as REAL: both operands are cast, so that the division stays an integer one.
  sql<number>`case when plan_group = 'durational' then (cast(${now} as bigint) - starts_at) / cast(${PERIOD_MS} as bigint) else 0 end`;

/** A live package with the names of the plan its order bought. */
export type NamedPackageRow = UserPackageRow & { plan_names: string };

/**
 * Customers whose live packages are kept in memory: at most this many, each for at most this long, and only queues of
 * at most so many packages, so that what is kept stays within a few megabytes.
 */
const KEPT_CUSTOMERS = 10_000;
const KEPT_PACKAGES_MS = 60_000;
const KEPT_QUEUE_MAX = 10;

/**
 * Subscription links whose customer is kept in memory, with the package running: at most this many (about 650 bytes
 * each, 30 MiB in all), each for at most this long. What is kept serves a link fetched again within moments (each
 * device of a household, an import right after the link's page was opened, a retry); a link's first fetch reads it.
 */
const KEPT_SUBSCRIBERS = 50_000;
const KEPT_SUBSCRIBER_MS = 60_000;
/** The most links a query reads together on PostgreSQL (`BatchedLookup`): a power of two (`keySlots`). */
const LINKS_READ_TOGETHER = 512;

/**
 * How many links a query for `count` of them asks for: the next power of two, the last link repeated in the others.
 * Each size is a prepared statement of its own whose plan PostgreSQL keeps (a generic plan: with as many values in
 * every run, no run's plan could be cheaper). One statement for any number of links (`= any($1)`) was planned anew
 * on every run (its generic plan's cost counted ten links, more than a custom plan for the usual four), half its time
 * for a few links: without that planning, PostgreSQL's first fetches went from some 4,500 to 5,400 a second
 * (bench/RESULTS.md, twentieth round).
 */
const keySlots = (count: number) => 2 ** Math.ceil(Math.log2(Math.max(count, 1)));

/** A customer's packages' row, and their own row, as the change feed names them. */
const PACKAGES_TABLE = 'user_packages';
const packagesRow = (userId: number): Row => [PACKAGES_TABLE, userId];
const userRow = (userId: number): Row => ['users', userId];

/**
 * PostgreSQL, several links at once: each customer with the packages live at any time between the first and the last
 * lookup's, each lookup picking those of its own time (`#readSubscriber`). The packages are looked up by each
 * customer's id, in a subquery that OFFSET 0 keeps apart: joined freely, PostgreSQL read every live package when its
 * statistics were stale (a table just filled), 30 ms a query against 0.3.
 */
function subscribersReadTogether(db: Executor): BatchedLookup<string, number, SubscriberPackageRow[]> {
  const queryFor = (slots: number) =>
    compiledOnce(db, slots + 2, (from: number, until: number, ...tokenHashes: string[]) =>
      db
        .selectFrom('users')
        .leftJoinLateral(
          (query) =>
            query
              .selectFrom('user_packages')
              .select(['id as package_id', ...COUNTER_COLUMNS])
              .whereRef('user_packages.user_id', '=', 'users.id')
              .where('ended_at', 'is', null)
              .where('starts_at', '<=', until)
              .where('ends_at', '>', from)
              .offset(sql.lit(0))
              .as('live'),
          (join) => join.onTrue(),
        )
        .select(['users.sub_token_hash', 'users.id', 'users.uuid', 'users.banned', 'live.package_id'])
        .select(COUNTER_COLUMNS.map((column) => `live.${column}` as const))
        .where('users.sub_token_hash', 'in', tokenHashes),
    );
  const bySlots = new Map<number, ReturnType<typeof queryFor>>();
  return new BatchedLookup(async (tokenHashes: string[], nows: number[]) => {
    let from = Number.POSITIVE_INFINITY;
    let until = Number.NEGATIVE_INFINITY;
    for (const now of nows) {
      from = Math.min(from, now);
      until = Math.max(until, now);
    }
    const slots = keySlots(tokenHashes.length);
    let query = bySlots.get(slots);
    if (!query) {
      query = queryFor(slots);
      bySlots.set(slots, query);
    }
    const padded = [...tokenHashes];
    while (padded.length < slots) padded.push(tokenHashes[tokenHashes.length - 1]!);
    const byTokenHash = new Map<string, SubscriberPackageRow[]>();
    for (const { sub_token_hash: tokenHash, ...row } of await query.all(from, until, ...padded)) {
      const rows = byTokenHash.get(tokenHash!);
      if (rows) rows.push(row);
      else byTokenHash.set(tokenHash!, [row]);
    }
    return byTokenHash;
  }, LINKS_READ_TOGETHER);
}

/**
 * What this instance keeps of the database, shared with the repository of each of its transactions; and on SQLite the
 * push's statement, compiled once for all of them.
 */
type Kept = {
  packages: ReadCache<NamedPackageRow[]>;
  subscribers: ReadCache<SubscriberWithPackage | undefined>;
  trafficCount?: SqliteTrafficCount;
};

export class SubscriptionRepository {
  /** Read on every dashboard visit and feed fetch: compiled once, on first use. */
  readonly #livePackages;
  readonly #livePackagesNamed;
  readonly #subscriberByTokenHash;
  /** On PostgreSQL, the links looked up while one is read are read together, in one query; on SQLite each alone. */
  readonly #subscribersTogether;
  /**
   * While the database reports every change of their rows: each customer's live packages as the dashboard reads them,
   * until the first of them ends; and each subscription link's customer with the package running, until it ends. The
   * rows only: what is used in the current period is worked out per request.
   */
  readonly #kept: Kept;

  constructor(
    private readonly db: Executor,
    changes: ChangeFeed = UNHEARD,
    kept?: Kept,
  ) {
    this.#kept = kept ?? {
      packages: new ReadCache(changes, {
        tables: ['user_packages'],
        maxEntries: KEPT_CUSTOMERS,
        maxAgeMs: KEPT_PACKAGES_MS,
      }),
      subscribers: new ReadCache(changes, {
        tables: ['users', 'user_packages'],
        maxEntries: KEPT_SUBSCRIBERS,
        maxAgeMs: KEPT_SUBSCRIBER_MS,
      }),
      ...(isPostgres(db) ? {} : { trafficCount: sqliteTrafficCount(db) }),
    };
    this.#livePackages = compiledOnce(db, 2, (userId: number, now: number) =>
      db
        .selectFrom('user_packages')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where('ended_at', 'is', null)
        .where('ends_at', '>', now)
        .orderBy('starts_at')
        .orderBy('id'),
    );
    this.#livePackagesNamed = compiledOnce(db, 2, (userId: number, now: number) =>
      db
        .selectFrom('user_packages')
        .innerJoin('orders', 'orders.id', 'user_packages.order_id')
        .select(COLUMNS.map((column) => `user_packages.${column}` as const))
        .select('orders.plan_names')
        .where('user_packages.user_id', '=', userId)
        .where('user_packages.ended_at', 'is', null)
        .where('user_packages.ends_at', '>', now)
        .orderBy('user_packages.starts_at')
        .orderBy('user_packages.id'),
    );
    // One query per feed fetch: the customer, and each live package that has started (almost always one). The one
    // running is the first of them (`runningPackageId`'s order), picked in `#readSubscriber`: SQLite took a third
    // longer to sort them in the query and look the one up again by its id.
    this.#subscriberByTokenHash = compiledOnce(db, 2, (tokenHash: string, now: number) =>
      db
        .selectFrom('users')
        .leftJoin('user_packages as live', (join) =>
          join
            .onRef('live.user_id', '=', 'users.id')
            .on('live.ended_at', 'is', null)
            .on('live.starts_at', '<=', now)
            .on('live.ends_at', '>', now),
        )
        .select(['users.id', 'users.uuid', 'users.banned', 'live.id as package_id'])
        .select(COUNTER_COLUMNS.map((column) => `live.${column}` as const))
        .where('users.sub_token_hash', '=', tokenHash),
    );
    // Not in a transaction, which reads the database itself.
    this.#subscribersTogether = !db.isTransaction && isPostgres(db) ? subscribersReadTogether(db) : undefined;
  }

  /** The same repository in the caller's transaction; it reads the database itself, never what is kept. */
  with(tx: Executor): SubscriptionRepository {
    return new SubscriptionRepository(tx, UNHEARD, this.#kept);
  }

  /** This instance's own writes drop what they change once committed, without waiting for the database's notice. */
  #changed(userIds: readonly number[]): void {
    whenCommitted(this.db, () => {
      this.#kept.packages.forgetRows(PACKAGES_TABLE, userIds);
      this.#kept.subscribers.forgetRows(PACKAGES_TABLE, userIds);
    });
  }

  /** Packages not ended and not yet expired: the active one and the queued ones, in the order they run. */
  livePackages(userId: number, now: number): Promise<UserPackageRow[]> {
    return this.#livePackages.all(userId, now) as Promise<UserPackageRow[]>;
  }

  /** Live packages with the names of the plans their orders bought. */
  livePackagesNamed(userId: number, now: number): MaybePromise<NamedPackageRow[]> {
    const read = () => this.#livePackagesNamed.all(userId, now) as Promise<NamedPackageRow[]>;
    if (this.db.isTransaction) return read();
    // Kept until the first live package ends: it leaves the list then.
    return this.#kept.packages.read(String(userId), now, read, (packages) =>
      packages.length <= KEPT_QUEUE_MAX
        ? { rows: [packagesRow(userId)], until: Math.min(...packages.map((pkg) => pkg.ends_at)) }
        : undefined,
    );
  }

  /**
   * The users nodes must serve: not banned, with a running package whose allowance is not used up (a durational
   * package's counters belong to an earlier period once a new one has begun).
   */
  usableUsers(now: number): Promise<Array<{ id: number; uuid: string }>> {
    return this.db
      .selectFrom('users')
      .select(['users.id', 'users.uuid'])
      .where('users.banned', '=', 0)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('user_packages')
            .select(sql`1`.as('one'))
            .whereRef('user_packages.user_id', '=', 'users.id')
            .where('user_packages.ended_at', 'is', null)
            .where('user_packages.starts_at', '<=', now)
            .where('user_packages.ends_at', '>', now)
            .where((inner) =>
              inner.or([
                inner('user_packages.traffic_used', '<', inner.ref('user_packages.traffic_total')),
                inner('user_packages.period', '<', currentPeriod(now)),
              ]),
            ),
        ),
      )
      .orderBy('users.id')
      .execute();
  }

  /** The next moment a package starts or ends: until then, the usable users change only through writes. */
  async nextScheduleChange(now: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('user_packages')
      .select((eb) => [
        eb.fn.min('starts_at').filterWhere('starts_at', '>', now).as('next_start'),
        eb.fn.min('ends_at').filterWhere('ends_at', '>', now).as('next_end'),
      ])
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    const times = [row?.next_start, row?.next_end].filter(
      (time): time is number => time !== null && time !== undefined,
    );
    return times.length ? Math.min(...times.map(Number)) : null;
  }

  /**
   * Adds each user's bytes to their running package in one statement whose text never changes (the pushed rows
   * travel as arrays on PostgreSQL and as JSON on SQLite, so neither planning nor parameter limits grow with a
   * push), starting a new period's counters where a durational package has entered one. Returns the users whose
   * running package's allowance is now used up.
   */
  async addTraffic(entries: TrafficEntry[], now: number): Promise<number[]> {
    const usedUp = await this.#countTraffic(entries, now);
    // On SQLite no trigger reports a push's counters (change-feed.ts): this is what drops them.
    this.#changed(entries.map((entry) => entry.userId));
    return usedUp;
  }

  async #countTraffic(entries: TrafficEntry[], now: number): Promise<number[]> {
    if (isPostgres(this.db)) {
      const pushed = sql`pushed(user_id, up, down) as (select * from unnest(
          cast(${entries.map((entry) => entry.userId)} as bigint[]),
          cast(${entries.map((entry) => entry.upload)} as bigint[]),
          cast(${entries.map((entry) => entry.download)} as bigint[])
        ))`;
      const { rows } = await sql<{ user_id: number }>`${trafficUpdate(this.db, pushed, now)}
        returning case when user_packages.traffic_used >= user_packages.traffic_total then user_packages.user_id end
          as user_id`.execute(this.db);
      return rows.filter((row) => row.user_id !== null).map((row) => Number(row.user_id));
    }
    // SQLite hands back every row an UPDATE … RETURNING changed (5 ms for 10,000 users) to keep the few used up: a
    // trigger of this connection notes only those, as the rows change. What other updates noted is cleared first.
    await sql`create temp table if not exists used_up (user_id integer not null)`.execute(this.db);
    await sql`create temp trigger if not exists used_up_noted after update of traffic_used on main.user_packages
      when new.traffic_used >= new.traffic_total
      begin insert into temp.used_up (user_id) values (new.user_id); end`.execute(this.db);
    await sql`delete from temp.used_up`.execute(this.db);
    const count = this.#kept.trafficCount!.on(this.db);
    for (let start = 0; start < entries.length; start += PUSHED_PER_STATEMENT) {
      const values: number[] = [];
      for (let index = start; index < start + PUSHED_PER_STATEMENT; index++) {
        const entry = entries[index];
        if (entry) values.push(entry.userId, entry.upload, entry.download);
        else values.push(NO_CUSTOMER, 0, 0);
      }
      await count.all(now, ...values);
    }
    const { rows } = await sql<{ user_id: number }>`select user_id from temp.used_up`.execute(this.db);
    return rows.map((row) => row.user_id);
  }

  /** A traffic package whose allowance is used up is over: it ends now, so that the next queued one can start. */
  async endExhaustedTrafficPackages(userIds: number[], now: number): Promise<void> {
    // In slices, so that a push that used up many allowances at once stays within the parameter limits.
    for (let start = 0; start < userIds.length; start += 1000) {
      await this.db
        .updateTable('user_packages')
        .set({ ends_at: now })
        .where('user_id', 'in', userIds.slice(start, start + 1000))
        .where('plan_group', '=', 'traffic')
        .where('ended_at', 'is', null)
        .where('starts_at', '<=', now)
        .where('ends_at', '>', now)
        .whereRef('traffic_used', '>=', 'traffic_total')
        .execute();
    }
    this.#changed(userIds);
  }

  findSubscriberByTokenHash(tokenHash: string, now: number): MaybePromise<SubscriberWithPackage | undefined> {
    const read = () => this.#readSubscriber(tokenHash, now);
    if (this.db.isTransaction) return read();
    // Kept only with a running package, until it ends: the next one starts then. An unknown link is never kept.
    return this.#kept.subscribers.read(tokenHash, now, read, (subscriber) =>
      subscriber?.running
        ? { rows: [userRow(subscriber.id), packagesRow(subscriber.id)], until: subscriber.running.ends_at }
        : undefined,
    );
  }

  async #readSubscriber(tokenHash: string, now: number): Promise<SubscriberWithPackage | undefined> {
    const rows = this.#subscribersTogether
      ? ((await this.#subscribersTogether.get(tokenHash, now)) ?? [])
      : await this.#subscriberByTokenHash.all(tokenHash, now);
    const [first] = rows;
    if (!first) return undefined;
    // The first of the packages live at `now`; a customer without one has one row, with no package.
    let running: SubscriberPackageRow | undefined;
    for (const row of rows) {
      if (row.package_id === null || row.starts_at! > now || row.ends_at! <= now) continue;
      const earlier =
        !running ||
        row.starts_at! < running.starts_at! ||
        (row.starts_at === running.starts_at && row.package_id < running.package_id!);
      if (earlier) running = row;
    }
    const { id, uuid, banned } = first;
    if (!running) return { id, uuid, banned };
    const { id: _id, uuid: _uuid, banned: _banned, package_id: _package, ...counters } = running;
    return { id, uuid, banned, running: counters as PackageCounters };
  }

  findSubscriber(userId: number): Promise<SubscriberRow | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'uuid', 'banned', 'sub_nonce'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  /** A new subscription nonce and token hash, and a new proxy UUID when given. */
  async setSubscription(userId: number, nonce: string, tokenHash: string, uuid?: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ sub_nonce: nonce, sub_token_hash: tokenHash, ...(uuid ? { uuid } : {}) })
      .where('id', '=', userId)
      .execute();
    // The old link stops at once on this instance too, without waiting for the database's notice.
    whenCommitted(this.db, () => this.#kept.subscribers.forgetRow(...userRow(userId)));
  }

  async getSetting(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  /** Keeps the first value ever written: of several instances racing, all end up reading the same one. */
  async insertSettingOnce(key: string, value: string, now: number): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value, updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  /**
   * Holds the user's row until the transaction ends, so that two transactions changing one customer's packages (two
   * payments arriving at once, on one instance or two) run one after the other and the second sees the first's
   * package. SQLite needs none: it runs one write transaction at a time.
   */
  async lockUser(userId: number): Promise<void> {
    if (!isPostgres(this.db)) return;
    await this.db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }

  /** False when the order already has its package (ON CONFLICT: this runs inside the payment's transaction). */
  async insert(pkg: NewUserPackage, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('user_packages')
      .values({ ...pkg, created_at: now })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .executeTakeFirst();
    this.#changed([pkg.user_id]);
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Ends the package of an order now; false when there was nothing to end. */
  async endByOrder(orderId: number, now: number): Promise<boolean> {
    const ended = await this.db
      .updateTable('user_packages')
      .set((eb) => ({
        ended_at: now,
        ends_at: eb.case().when('ends_at', '>', now).then(now).else(eb.ref('ends_at')).end(),
      }))
      .where('order_id', '=', orderId)
      .where('ended_at', 'is', null)
      .returning('user_id')
      .execute();
    this.#changed(ended.map((row) => row.user_id));
    return ended.length > 0;
  }

  /** Every package of the user, ended and expired ones too, with the names of the plans bought, in the order they run. */
  allPackagesNamed(userId: number): Promise<Array<UserPackageRow & { plan_names: string; ended_at: number | null }>> {
    return this.db
      .selectFrom('user_packages')
      .innerJoin('orders', 'orders.id', 'user_packages.order_id')
      .select(COLUMNS.map((column) => `user_packages.${column}` as const))
      .select(['orders.plan_names', 'user_packages.ended_at'])
      .where('user_packages.user_id', '=', userId)
      .orderBy('user_packages.starts_at')
      .orderBy('user_packages.id')
      .execute() as Promise<Array<UserPackageRow & { plan_names: string; ended_at: number | null }>>;
  }

  /**
   * Moves the end of every live package of the user `ms` later, and the start of each one not yet begun, so that the
   * queue keeps its order and leaves no gap. Returns how many packages moved.
   */
  async extendLive(userId: number, ms: number, now: number): Promise<number> {
    const result = await this.db
      .updateTable('user_packages')
      .set((eb) => ({
        ends_at: eb('ends_at', '+', ms),
        starts_at: eb
          .case()
          .when('starts_at', '>', now)
          .then(eb('starts_at', '+', ms))
          .else(eb.ref('starts_at'))
          .end(),
      }))
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('ends_at', '>', now)
      .executeTakeFirst();
    this.#changed([userId]);
    return Number(result.numUpdatedRows);
  }

  /** Raises the allowance of the user's running package by `bytes`; false when nothing runs. */
  async raiseRunningAllowance(userId: number, bytes: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('user_packages')
      .set((eb) => ({ traffic_total: eb('traffic_total', '+', bytes) }))
      .where('id', '=', runningPackageId(this.db, userId, now))
      .executeTakeFirst();
    this.#changed([userId]);
    return result.numUpdatedRows > 0n;
  }

  async reschedule(id: number, startsAt: number, endsAt: number): Promise<void> {
    const moved = await this.db
      .updateTable('user_packages')
      .set({ starts_at: startsAt, ends_at: endsAt })
      .where('id', '=', id)
      .returning('user_id')
      .execute();
    this.#changed(moved.map((row) => row.user_id));
  }
}

/**
 * The id of the package running now for a user (given, or a column of the query around): the first live one by start,
 * if it has started. The live ones run in order of start, so no later one can have started before it.
 */
function runningPackageId(db: Executor, user: number | RawBuilder<number>, now: number) {
  return db
    .selectFrom('user_packages as live')
    .select('live.id')
    .where('live.user_id', '=', user)
    .where('live.ended_at', 'is', null)
    .where('live.starts_at', '<=', now)
    .where('live.ends_at', '>', now)
    .orderBy('live.starts_at')
    .orderBy('live.id')
    .limit(sql.lit(1));
}

/**
 * Adds each pushed row's bytes (`pushed`: a CTE of user_id, up and down) to its customer's running package, the
 * counters starting again where the package's period has moved on since they last counted.
 */
function trafficUpdate(db: Executor, pushed: RawBuilder<unknown>, now: number) {
  const period = currentPeriod(now);
  return sql`
      with ${pushed}
      update user_packages set
        upload_used = case when period = ${period} then upload_used + pushed.up else pushed.up end,
        download_used = case when period = ${period} then download_used + pushed.down else pushed.down end,
        traffic_used = case when period = ${period} then traffic_used + pushed.up + pushed.down else pushed.up + pushed.down end,
        period = ${period}
      from pushed
      where user_packages.id = (${runningPackageId(db, sql.ref<number>('pushed.user_id'), now)})`;
}

/**
 * Pushed rows a statement counts on SQLite, bound as `VALUES`: a push runs the statement for each of so many rows, the
 * last one's spare rows naming no customer (`NO_CUSTOMER`), so that they change nothing. Bound rows took 17.4 ms for
 * 10,000 where the same rows as binary JSON, read by `jsonb_each`, took 22.0 (one process; bench/RESULTS.md, twenty-
 * fifth round); 500 rows a statement ran as fast as 250 or 1,000, and 1,500 values stay within SQLite's 32,766.
 */
const PUSHED_PER_STATEMENT = 500;
const NO_CUSTOMER = -1;

/**
 * SQLite's statement counting PUSHED_PER_STATEMENT pushed rows: `now`, then each row's user id, upload and download.
 * better-sqlite3 binds a JavaScript number as a REAL: each is cast back to an integer, so that the counters add up as
 * integers.
 */
function sqliteTrafficCount(db: Executor) {
  return compiledOnce(db, 1 + 3 * PUSHED_PER_STATEMENT, (now: number, ...values: number[]) => {
    const rows: RawBuilder<unknown>[] = [];
    for (let at = 0; at < values.length; at += 3) {
      rows.push(
        sql`(cast(${values[at]} as integer), cast(${values[at + 1]} as integer), cast(${values[at + 2]} as integer))`,
      );
    }
    const update = trafficUpdate(db, sql`pushed(user_id, up, down) as (values ${sql.join(rows)})`, now);
    return { compile: () => update.compile(db) };
  });
}
type SqliteTrafficCount = CompiledOnce<unknown, [now: number, ...values: number[]]>;
