import { type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/column-types.js';
import type { Executor } from '../../db/transaction.js';

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

export class SubscriptionRepository {
  constructor(private readonly db: Executor) {}

  /** The same repository in the caller's transaction. */
  with(tx: Executor): SubscriptionRepository {
    return new SubscriptionRepository(tx);
  }

  /** Packages not ended and not yet expired: the active one and the queued ones, in the order they run. */
  livePackages(userId: number, now: number): Promise<UserPackageRow[]> {
    return this.db
      .selectFrom('user_packages')
      .select(COLUMNS)
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('ends_at', '>', now)
      .orderBy('starts_at')
      .orderBy('id')
      .execute();
  }

  /** Live packages with the names of the plans their orders bought. */
  livePackagesNamed(userId: number, now: number): Promise<NamedPackageRow[]> {
    return this.db
      .selectFrom('user_packages')
      .innerJoin('orders', 'orders.id', 'user_packages.order_id')
      .select(COLUMNS.map((column) => `user_packages.${column}` as const))
      .select('orders.plan_names')
      .where('user_packages.user_id', '=', userId)
      .where('user_packages.ended_at', 'is', null)
      .where('user_packages.ends_at', '>', now)
      .orderBy('user_packages.starts_at')
      .orderBy('user_packages.id')
      .execute();
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
   * Adds each user's bytes to their running package in one statement (the pushed rows travel as arrays on PostgreSQL
   * and as JSON on SQLite, so that neither the query's text nor its parameters grow with a push), starting a new
   * period's counters where a durational package has entered one. Returns the users whose running package's
   * allowance is now used up.
   */
  async addTraffic(entries: TrafficEntry[], now: number): Promise<number[]> {
    const pushed = isPostgres(this.db)
      ? sql`pushed(user_id, up, down) as (select * from unnest(
          cast(${entries.map((entry) => entry.userId)} as bigint[]),
          cast(${entries.map((entry) => entry.upload)} as bigint[]),
          cast(${entries.map((entry) => entry.download)} as bigint[])
        ))`
      : sql`pushed(user_id, up, down) as (select
          cast(json_extract(value, '$[0]') as integer),
          cast(json_extract(value, '$[1]') as integer),
          cast(json_extract(value, '$[2]') as integer)
        from json_each(${JSON.stringify(entries.map((entry) => [entry.userId, entry.upload, entry.download]))}))`;
    const { rows } = await sql<{ user_id: number; used_up: number | boolean }>`${trafficUpdate(this.db, pushed, now)}
      returning user_packages.user_id as user_id, user_packages.traffic_used >= user_packages.traffic_total as used_up`.execute(
      this.db,
    );
    return rows.filter((row) => Boolean(row.used_up)).map((row) => Number(row.user_id));
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
  }

  /**
   * The customer of a subscription link, by the unique index on its token's hash, with the package running now: the
   * first, in the order they run, of their live packages that have started (almost always one).
   */
  async findSubscriberByTokenHash(tokenHash: string, now: number): Promise<SubscriberWithPackage | undefined> {
    const row: SubscriberPackageRow | undefined = await this.db
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
      .where('users.sub_token_hash', '=', tokenHash)
      .orderBy('live.starts_at')
      .orderBy('live.id')
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    const { id, uuid, banned, package_id: packageId, ...counters } = row;
    return packageId === null ? { id, uuid, banned } : { id, uuid, banned, running: counters as PackageCounters };
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
      .executeTakeFirst();
    return ended.numUpdatedRows > 0n;
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
    return Number(result.numUpdatedRows);
  }

  /** The package running now for the user, if any. */
  runningPackage(userId: number, now: number): Promise<Pick<UserPackageRow, 'id' | 'traffic_total'> | undefined> {
    return this.db
      .selectFrom('user_packages')
      .select(['id', 'traffic_total'])
      .where('id', '=', runningPackageId(this.db, userId, now))
      .executeTakeFirst();
  }

  async raiseAllowance(packageId: number, bytes: number): Promise<void> {
    await this.db
      .updateTable('user_packages')
      .set((eb) => ({ traffic_total: eb('traffic_total', '+', bytes) }))
      .where('id', '=', packageId)
      .execute();
  }

  async reschedule(id: number, startsAt: number, endsAt: number): Promise<void> {
    await this.db
      .updateTable('user_packages')
      .set({ starts_at: startsAt, ends_at: endsAt })
      .where('id', '=', id)
      .execute();
  }
  // The console's overview (read only).

  /** Customers with a package running at `now`: started, not past its end, not ended by a refund or chargeback. */
  async countCustomersRunning(now: number): Promise<number> {
    const row = await this.db
      .selectFrom('user_packages')
      .select((eb) => eb.fn.count('user_id').distinct().as('count'))
      .where('ended_at', 'is', null)
      .where('ends_at', '>', now)
      .where('starts_at', '<=', now)
      .executeTakeFirstOrThrow();
    return Number(row.count);
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
    .limit(1);
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
