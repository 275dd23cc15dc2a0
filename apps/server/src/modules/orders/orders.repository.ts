import type { OrderStatus } from '@mutenet/contract';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/transaction.js';

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
  payment_ref: string | null;
  created_at: number;
  updated_at: number;
  due_at: number;
};

export type NewOrder = Omit<OrderRow, 'id' | 'status' | 'gateway' | 'payment_ref' | 'updated_at'>;

/** Which orders a change may apply to: their number or id, optionally their owner, and their statuses. */
export type Transition = {
  match: { no: string } | { id: number };
  userId?: number;
  from: readonly OrderStatus[];
  to: OrderStatus;
  /** Only orders not yet due (an unpaid order past its due time counts as timed out). */
  notDueAt?: number;
  /** The gateway opened or, with `paymentRef`, the gateway and its payment that paid the order. */
  gateway?: string;
  paymentRef?: string;
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
  'payment_ref',
  'created_at',
  'updated_at',
  'due_at',
] as const;

export type OrderFilter = { userId?: number; status?: OrderStatus; limit?: number };

/**
 * The operators' filters. `timedOutAt`: an unpaid order past its due time counts as timed out whether or not the job
 * has moved it, so that `timeout` finds it and `waiting` or `paying` leave it out.
 */
export type OrderPageFilter = {
  status?: OrderStatus;
  currency?: string;
  gateway?: string;
  from?: number;
  to?: number;
  userId?: number;
  /** Orders older than this one (creation time, then id): the keyset of the next page. */
  before?: { createdAt: number; id: number };
  limit: number;
  timedOutAt: number;
};

/** The most orders a list holds, a customer's own included. */
const LIST_LIMIT = 500;
const UNPAID_OPEN: readonly OrderStatus[] = ['waiting', 'paying'];

/** Orders newest first, a page long: the base every filter of the operators' list narrows. */
const pageQuery = (db: Executor, limit: number) =>
  db.selectFrom('orders').select(COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
type OrderPageQuery = ReturnType<typeof pageQuery>;

export class OrdersRepository {
  constructor(private readonly db: Executor) {}

  /** The same repository in the caller's transaction. */
  with(tx: Executor): OrdersRepository {
    return new OrdersRepository(tx);
  }

  /** The new order, or undefined when the customer already has an unfinished one for the plan. */
  async insert(order: NewOrder): Promise<OrderRow | undefined> {
    try {
      return (await this.db
        .insertInto('orders')
        .values({ ...order, status: 'waiting', gateway: null, payment_ref: null, updated_at: order.created_at })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow()) as OrderRow;
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

  /** An order by its number (unique), of that customer only when one is given. */
  findByNo(no: string, userId?: number): Promise<OrderRow | undefined> {
    let query = this.db.selectFrom('orders').select(COLUMNS).where('no', '=', no);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    return query.executeTakeFirst() as Promise<OrderRow | undefined>;
  }

  /** Newest first: a customer's by the index on their id and the time. */
  list({ userId, status, limit = LIST_LIMIT }: OrderFilter): Promise<OrderRow[]> {
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
   * A page of orders, newest first, by keyset rather than offset so that a late page costs what the first does; each
   * filter has an index led by its column and followed by the creation time (migration 0013).
   */
  async page(filter: OrderPageFilter): Promise<OrderRow[]> {
    const { status, timedOutAt: now } = filter;
    if (status !== 'timeout') {
      return this.#page(filter, (query) => {
        if (status === undefined) return query;
        const ofStatus = query.where('status', '=', status);
        return UNPAID_OPEN.includes(status) ? ofStatus.where('due_at', '>', now) : ofStatus;
      });
    }
    // Timed out: marked so, or still unpaid past the due time (until the job marks them). One OR over both would
    // make the database gather every match to sort it; two pages each read from the status index, merged, do not.
    const [marked, pastDue] = await Promise.all([
      this.#page(filter, (query) => query.where('status', '=', 'timeout')),
      this.#page(filter, (query) => query.where('status', 'in', [...UNPAID_OPEN]).where('due_at', '<=', now)),
    ]);
    return [...marked, ...pastDue]
      .sort((a, b) => Number(b.created_at) - Number(a.created_at) || Number(b.id) - Number(a.id))
      .slice(0, filter.limit);
  }

  #page(filter: OrderPageFilter, byStatus: (query: OrderPageQuery) => OrderPageQuery): Promise<OrderRow[]> {
    let query = byStatus(pageQuery(this.db, filter.limit));
    if (filter.currency !== undefined) query = query.where('currency', '=', filter.currency);
    if (filter.gateway !== undefined) query = query.where('gateway', '=', filter.gateway);
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
    const { before } = filter;
    if (before) {
      query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(before.createdAt, before.id)));
    }
    return query.execute() as Promise<OrderRow[]>;
  }

  /**
   * Moves an order from one of the allowed statuses to another in one conditional update, so that of two racing
   * changes only one applies. Returns the changed order, or undefined when none matched.
   */
  async transition(change: Transition, now: number): Promise<OrderRow | undefined> {
    let query = this.db
      .updateTable('orders')
      .set({
        status: change.to,
        updated_at: now,
        ...(change.gateway ? { gateway: change.gateway } : {}),
        ...(change.paymentRef ? { payment_ref: change.paymentRef } : {}),
      })
      .where('status', 'in', [...change.from]);
    query = 'no' in change.match ? query.where('no', '=', change.match.no) : query.where('id', '=', change.match.id);
    if (change.userId !== undefined) query = query.where('user_id', '=', change.userId);
    if (change.notDueAt !== undefined) query = query.where('due_at', '>', change.notDueAt);
    return (await query.returning(COLUMNS).executeTakeFirst()) as OrderRow | undefined;
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

  // The console's overview (read only).

  /**
   * The amounts of the orders paid since each of `since` and still paid (not refunded or charged back), per currency
   * and decimals: a paid order's `updated_at` is when it was paid, as no move leaves `success` but a reversal.
   */
  async paidTotals(since: number[]): Promise<Array<{ currency: string; decimals: number; totals: number[] }>> {
    const rows = await this.db
      .selectFrom('orders')
      .select(['currency', 'decimals'])
      .select((eb) =>
        since.map((start, index) =>
          eb.fn
            .sum<number | string>(eb.case().when('updated_at', '>=', start).then(eb.ref('amount_minor')).else(0).end())
            .as(`total${index}`),
        ),
      )
      .where('status', '=', 'success')
      .where('updated_at', '>=', Math.min(...since))
      .groupBy(['currency', 'decimals'])
      .orderBy('currency')
      .execute();
    return rows.map((row) => ({
      currency: row.currency,
      decimals: row.decimals,
      totals: since.map((_, index) => Number((row as Record<string, unknown>)[`total${index}`])),
    }));
  }

  /** How many of the orders made since `since` are in each status that has any. */
  async countByStatusSince(since: number): Promise<Array<{ status: OrderStatus; count: number }>> {
    const rows = await this.db
      .selectFrom('orders')
      .select((eb) => ['status', eb.fn.countAll().as('count')])
      .where('created_at', '>=', since)
      .groupBy('status')
      .execute();
    return rows.map((row) => ({ status: row.status as OrderStatus, count: Number(row.count) }));
  }
}
