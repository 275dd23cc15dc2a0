import type { OrderStatus } from '@mutenet/contract';
import { sql } from 'kysely';
import { type ChangeFeed, UNHEARD } from '../../db/change-feed.js';
import { compiledOnce } from '../../db/compiled-query.js';
import { isUniqueViolation } from '../../db/errors.js';
import { ReadCache, type Row } from '../../db/read-cache.js';
import { type Executor, whenCommitted } from '../../db/transaction.js';
import type { MaybePromise } from '../../lib/maybe-promise.js';

export type OrderRow = {
  id: number;
  no: string;
  user_id: number;
  plan_id: number;
  package_id: number;
  plan_names: string;
  package_label: string;
  plan_group: 'traffic' | 'durational';
  days: number;
  traffic_bytes: number;
  currency: string;
  amount_minor: number;
  decimals: number;
  status: OrderStatus;
  gateway: string | null;
  created_at: number;
  updated_at: number;
  due_at: number;
};

export type NewOrder = Omit<OrderRow, 'id' | 'status' | 'gateway' | 'updated_at'>;

/** Which orders a change may apply to: their number or id, optionally their owner, and their statuses. */
export type Transition = {
  match: { no: string } | { id: number };
  userId?: number;
  from: readonly OrderStatus[];
  to: OrderStatus;
  /** Only orders not yet due (an unpaid order past its due time counts as timed out). */
  notDueAt?: number;
  gateway?: string;
};

const COLUMNS = [
  'id',
  'no',
  'user_id',
  'plan_id',
  'package_id',
  'plan_names',
  'package_label',
  'plan_group',
  'days',
  'traffic_bytes',
  'currency',
  'amount_minor',
  'decimals',
  'status',
  'gateway',
  'created_at',
  'updated_at',
  'due_at',
] as const;

export type OrderFilter = { userId?: number; status?: OrderStatus; limit?: number };

/** The most orders a list holds, a customer's own included. */
const LIST_LIMIT = 500;

/**
 * Customers whose orders are kept in memory: at most this many, each for at most this long, and only lists of at most
 * so many orders, so that what is kept stays within tens of megabytes whoever has how many orders.
 */
const KEPT_CUSTOMERS = 10_000;
const KEPT_ORDERS_MS = 60_000;
const KEPT_LIST_MAX = 20;

/** A customer's orders' row, as the change feed names it. */
const ordersRow = (userId: number): Row => ['orders', userId];

export class OrdersRepository {
  /** The customer's own calls, on every visit to the orders screen: compiled once. */
  readonly #customerOrders;
  readonly #customerOrder;
  /**
   * Each customer's list, while the database reports every change of an order: the orders screen and one order are
   * read from it. The rows only: what a status is now (an unpaid order past due) is worked out per request.
   */
  readonly #kept: ReadCache<OrderRow[]>;

  constructor(
    private readonly db: Executor,
    changes: ChangeFeed = UNHEARD,
    kept?: ReadCache<OrderRow[]>,
  ) {
    this.#kept =
      kept ?? new ReadCache(changes, { tables: ['orders'], maxEntries: KEPT_CUSTOMERS, maxAgeMs: KEPT_ORDERS_MS });
    // The limit is written into the SQL, not bound: SQLite looks at a bound LIMIT's value when it plans the query,
    // so a statement with one is planned again on every run (32 µs a run here against 7 µs).
    this.#customerOrders = compiledOnce(db, 1, (userId: number) =>
      db
        .selectFrom('orders')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(sql.lit(LIST_LIMIT)),
    );
    this.#customerOrder = compiledOnce(db, 2, (no: string, userId: number) =>
      db.selectFrom('orders').select(COLUMNS).where('no', '=', no).where('user_id', '=', userId),
    );
  }

  /** The same repository in the caller's transaction; it reads the database itself, never what is kept. */
  with(tx: Executor): OrdersRepository {
    return new OrdersRepository(tx, UNHEARD, this.#kept);
  }

  /** This instance's own writes drop what they change once committed, without waiting for the database's notice. */
  #changed(userId: number): void {
    whenCommitted(this.db, () => this.#kept.forgetRow(...ordersRow(userId)));
  }

  /** The customer's newest orders, kept while the database reports their changes (outside transactions). */
  #customerList(userId: number): MaybePromise<OrderRow[]> {
    const read = () => this.#customerOrders.all(userId) as Promise<OrderRow[]>;
    if (this.db.isTransaction) return read();
    return this.#kept.read(String(userId), Date.now(), read, (orders) =>
      orders.length <= KEPT_LIST_MAX ? { rows: [ordersRow(userId)] } : undefined,
    );
  }

  /** The new order, or undefined when the customer already has an unfinished one for the plan. */
  async insert(order: NewOrder): Promise<OrderRow | undefined> {
    try {
      const row = (await this.db
        .insertInto('orders')
        .values({ ...order, status: 'waiting', gateway: null, updated_at: order.created_at })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow()) as OrderRow;
      this.#changed(row.user_id);
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  findOpen(userId: number, planId: number): Promise<OrderRow | undefined> {
    return this.db
      .selectFrom('orders')
      .select(COLUMNS)
      .where('user_id', '=', userId)
      .where('plan_id', '=', planId)
      .where('status', 'in', ['waiting', 'paying'])
      .executeTakeFirst() as Promise<OrderRow | undefined>;
  }

  async findByNo(no: string, userId?: number): Promise<OrderRow | undefined> {
    if (userId !== undefined) {
      // The customer's kept list holds every order of theirs (a longer list is not kept); else the one row.
      const kept = this.db.isTransaction ? undefined : this.#kept.peek(String(userId), Date.now());
      if (kept) return kept.find((row) => row.no === no);
      return this.#customerOrder.takeFirst(no, userId) as Promise<OrderRow | undefined>;
    }
    return this.db.selectFrom('orders').select(COLUMNS).where('no', '=', no).executeTakeFirst() as Promise<
      OrderRow | undefined
    >;
  }

  list({ userId, status, limit = LIST_LIMIT }: OrderFilter): MaybePromise<OrderRow[]> {
    if (userId !== undefined && status === undefined && limit === LIST_LIMIT) return this.#customerList(userId);
    let query = this.db
      .selectFrom('orders')
      .select(COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    if (status !== undefined) query = query.where('status', '=', status);
    return query.execute() as Promise<OrderRow[]>;
  }

  /**
   * Moves an order from one of the allowed statuses to another in one conditional update, so that of two racing
   * changes only one applies. Returns the changed order, or undefined when none matched.
   */
  async transition(change: Transition, now: number): Promise<OrderRow | undefined> {
    let query = this.db
      .updateTable('orders')
      .set({ status: change.to, updated_at: now, ...(change.gateway ? { gateway: change.gateway } : {}) })
      .where('status', 'in', [...change.from]);
    query = 'no' in change.match ? query.where('no', '=', change.match.no) : query.where('id', '=', change.match.id);
    if (change.userId !== undefined) query = query.where('user_id', '=', change.userId);
    if (change.notDueAt !== undefined) query = query.where('due_at', '>', change.notDueAt);
    const row = (await query.returning(COLUMNS).executeTakeFirst()) as OrderRow | undefined;
    if (row) this.#changed(row.user_id);
    return row;
  }

  /** How many orders there are in each status that has any. */
  async countByStatus(): Promise<Array<{ status: OrderStatus; count: number }>> {
    const rows = await this.db
      .selectFrom('orders')
      .select((eb) => ['status', eb.fn.countAll().as('count')])
      .groupBy('status')
      .execute();
    return rows.map((row) => ({ status: row.status as OrderStatus, count: Number(row.count) }));
  }

  /** Times out every unpaid order past its due time (of one customer and plan, when given); returns how many. */
  async timeOutDue(now: number, scope?: { userId: number; planId: number }): Promise<number> {
    let query = this.db
      .updateTable('orders')
      .set({ status: 'timeout', updated_at: now })
      .where('status', 'in', ['waiting', 'paying'])
      .where('due_at', '<=', now);
    if (scope) query = query.where('user_id', '=', scope.userId).where('plan_id', '=', scope.planId);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
