import { randomInt } from 'node:crypto';
import {
  type AdminOrder,
  type AdminOrdersQuery,
  ORDER_NO_PATTERN,
  ORDER_STATUSES,
  type Order,
  type OrderStatus,
  type RequestLanguage,
  UNPAID_ORDER_STATUSES,
} from '@mutenet/contract';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { pickLanguage } from '../../lib/localized.js';
import { toMajor } from '../../lib/money.js';
import { startOfUtcDays } from '../../lib/utc-days.js';
import { createUsersService, type UsersService } from '../auth/users.service.js';
import type { CatalogService } from '../catalog/catalog.service.js';
import type { SubscriptionService } from '../subscription/subscription.service.js';
import { type OrderFilter, type OrderRow, OrdersRepository } from './orders.repository.js';

export type { OrderRow };

/** What a payment gateway can report about an order. */
export const GATEWAY_OUTCOMES = ['success', 'failed', 'cancel', 'doing', 'refunded', 'rejected'] as const;
export type GatewayOutcome = (typeof GATEWAY_OUTCOMES)[number];

/**
 * The lifecycle: from which statuses an order may move to each status. `open` statuses count only while the
 * order is not yet due (after that it has timed out, whether or not the timeout job has run); `any` always.
 * A success moves any unpaid order: money that arrived after the order timed out, was cancelled or failed still
 * activates it (the operator may refund it), so that no paid order is left unpaid.
 */
const TRANSITIONS: Partial<Record<OrderStatus, { open: readonly OrderStatus[]; any: readonly OrderStatus[] }>> = {
  paying: { open: ['waiting', 'paying'], any: [] },
  close: { open: ['waiting'], any: [] },
  doing: { open: ['waiting', 'paying'], any: [] },
  success: { open: [], any: UNPAID_ORDER_STATUSES },
  failed: { open: ['waiting', 'paying'], any: ['doing'] },
  cancel: { open: ['waiting', 'paying'], any: ['doing'] },
  refunded: { open: [], any: ['success'] },
  rejected: { open: [], any: ['success'] },
};

/** The gateway and its id of the payment that paid an order. */
export type PaidBy = { gateway: string; paymentRef: string | null };

export type OrdersDeps = {
  db: Executor;
  repository: OrdersRepository;
  catalog: CatalogService;
  subscriptions: SubscriptionService;
  /** The customers' accounts: an order names its customer's email, and operators find orders by it. */
  users: UsersService;
  now: () => number;
  timeoutMs: number;
};

/** What operators filter orders by (the console's query; the command line passes the same). */
export type OrdersPageQuery = Omit<AdminOrdersQuery, 'limit'> & { limit: number };

/** A UTC timestamp to the second followed by 10 random digits: sortable by time, not guessable. */
export function newOrderNo(now: number): string {
  const stamp = new Date(now).toISOString().replace(/\D/g, '').slice(0, 14);
  return stamp + randomInt(0, 10_000_000_000).toString().padStart(10, '0');
}

/** The orders service on a database, as the plugin and the admin command line build it. */
export function createOrdersService(
  db: Executor,
  deps: Pick<OrdersDeps, 'catalog' | 'subscriptions' | 'now' | 'timeoutMs'>,
): OrdersService {
  return new OrdersService({ db, repository: new OrdersRepository(db), users: createUsersService(db), ...deps });
}

export class OrdersService {
  constructor(private readonly deps: OrdersDeps) {}

  /** The status as it is now: an unpaid order past its due time has timed out, whether or not the job has run. */
  statusOf(row: OrderRow): OrderStatus {
    return (row.status === 'waiting' || row.status === 'paying') && row.due_at <= this.deps.now()
      ? 'timeout'
      : row.status;
  }

  view(row: OrderRow, language: RequestLanguage): Order {
    return {
      no: row.no,
      pdName: pickLanguage(row.plan_names, language),
      pkgType: row.package_label,
      status: this.statusOf(row),
      currency: row.currency,
      totalPrice: toMajor(row.amount_minor, row.decimals),
      createAt: row.created_at,
    };
  }

  /**
   * Places an order at the database's price. Code 3 when an unfinished order for the plan exists (also when a
   * parallel request made it first), code 4 when a package is live and the customer has not confirmed queueing.
   */
  async create(userId: number, input: { pkgId: number; currency: string; force: boolean }): Promise<string> {
    const { repository, catalog, subscriptions, now } = this.deps;
    const item = await catalog.orderable(input.pkgId, input.currency);
    await repository.timeOutDue(now(), { userId, planId: item.planId });
    const unfinished = () => repository.findOpen(userId, item.planId);
    const open = await unfinished();
    if (open) throw new AppError('ORDER_UNFINISHED', [{ no: open.no }]);
    if (!input.force && (await subscriptions.hasLivePackage(userId))) throw new AppError('PACKAGE_ACTIVE');
    const createdAt = now();
    const order = await repository.insert({
      no: newOrderNo(createdAt),
      user_id: userId,
      plan_id: item.planId,
      package_id: item.packageId,
      plan_names: item.planNames,
      package_label: item.label,
      plan_group: item.planGroup,
      days: item.days,
      traffic_bytes: item.trafficBytes,
      currency: item.currency,
      amount_minor: item.amountMinor,
      decimals: item.decimals,
      created_at: createdAt,
      due_at: createdAt + this.deps.timeoutMs,
    });
    if (order) return order.no;
    const winner = await unfinished();
    throw new AppError('ORDER_UNFINISHED', winner ? [{ no: winner.no }] : []);
  }

  /** How many orders are stored in each status, every status listed (for the metrics). */
  async countByStatus(): Promise<Record<OrderStatus, number>> {
    const counts = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as Record<OrderStatus, number>;
    for (const { status, count } of await this.deps.repository.countByStatus()) counts[status] = count;
    return counts;
  }

  /** The customer's orders, newest first; with a number, just that one (none when it is not theirs). */
  async list(userId: number, language: RequestLanguage, no?: string): Promise<Order[]> {
    if (no !== undefined) {
      const row = ORDER_NO_PATTERN.test(no) ? await this.deps.repository.findByNo(no, userId) : undefined;
      return row ? [this.view(row, language)] : [];
    }
    return (await this.deps.repository.list({ userId })).map((row) => this.view(row, language));
  }

  /** A customer's own order; another customer's answers as not found. */
  async ownOrder(userId: number, no: string): Promise<OrderRow> {
    const row = ORDER_NO_PATTERN.test(no) ? await this.deps.repository.findByNo(no, userId) : undefined;
    if (!row) throw new AppError('ORDER_NOT_FOUND');
    return row;
  }

  async cancel(userId: number, no: string): Promise<void> {
    const row = await this.ownOrder(userId, no);
    if (!(await this.#move(this.deps.db, { no: row.no }, 'close', { userId }))) {
      throw new AppError('ORDER_NOT_CANCELLABLE');
    }
  }

  /** The customer opened a gateway: the order turns `paying`. */
  async startPaying(userId: number, no: string, gateway: string): Promise<OrderRow> {
    const row = await this.ownOrder(userId, no);
    const changed = await this.#move(this.deps.db, { no: row.no }, 'paying', { userId, payment: { gateway } });
    if (!changed) throw new AppError('ORDER_NOT_PAYABLE');
    return changed;
  }

  /** After a committed change to `to`: a package started or ended, so the users nodes serve may have changed. */
  async packagesChanged(to: OrderStatus): Promise<void> {
    if (to === 'success' || to === 'refunded' || to === 'rejected') await this.deps.subscriptions.touchUsers();
  }

  /** An order by its number, read inside the caller's transaction. */
  findForPayment(tx: Executor, no: string): Promise<OrderRow | undefined> {
    return ORDER_NO_PATTERN.test(no) ? this.deps.repository.with(tx).findByNo(no) : Promise.resolve(undefined);
  }

  /**
   * Applies what a gateway reported, inside the caller's transaction; undefined when the lifecycle refuses it. A
   * success records the gateway and its payment, which a refund names.
   */
  applyOutcome(tx: Executor, orderId: number, outcome: GatewayOutcome, paidBy: PaidBy): Promise<OrderRow | undefined> {
    const payment =
      outcome === 'success'
        ? { gateway: paidBy.gateway, ...(paidBy.paymentRef ? { paymentRef: paidBy.paymentRef } : {}) }
        : undefined;
    return this.#move(tx, { id: orderId }, outcome, { payment });
  }

  /** Times out the unpaid orders past due; safe to run on every instance at once. */
  timeOutDue(): Promise<number> {
    return this.deps.repository.timeOutDue(this.deps.now());
  }

  async #move(
    db: Executor,
    match: { no: string } | { id: number },
    to: OrderStatus,
    { userId, payment }: { userId?: number; payment?: { gateway: string; paymentRef?: string } | undefined } = {},
  ): Promise<OrderRow | undefined> {
    const rule = TRANSITIONS[to];
    if (!rule) return undefined;
    const work = async (tx: Executor) => {
      const repository = this.deps.repository.with(tx);
      const now = this.deps.now();
      const base = { match, to, ...(userId !== undefined ? { userId } : {}), ...payment };
      let row = rule.any.length ? await repository.transition({ ...base, from: rule.any }, now) : undefined;
      if (!row && rule.open.length) row = await repository.transition({ ...base, from: rule.open, notDueAt: now }, now);
      if (row && to === 'success') {
        await this.deps.subscriptions.activate(tx, {
          orderId: row.id,
          userId: row.user_id,
          planId: row.plan_id,
          packageId: row.package_id,
          planGroup: row.plan_group,
          days: row.days,
          trafficBytes: row.traffic_bytes,
        });
      }
      if (row && (to === 'refunded' || to === 'rejected')) {
        await this.deps.subscriptions.endForOrder(tx, { orderId: row.id, userId: row.user_id });
      }
      return row;
    };
    // Joins the caller's transaction (which then reports the change once it commits), or opens its own so that a
    // status and its package change together.
    if (db !== this.deps.db) return work(db);
    const row = await inTransaction(db, work);
    if (row) await this.packagesChanged(to);
    return row;
  }

  // Operator side: the console and the admin command line.

  /**
   * A page of orders, newest first, and the cursor of the next page (null at the end). A customer given by an email
   * no account has finds nothing.
   */
  async adminPage(query: OrdersPageQuery): Promise<{ rows: OrderRow[]; next: string | null }> {
    let { userId } = query;
    if (query.email !== undefined) {
      const owner = await this.deps.users.findUserIdByEmail(query.email);
      if (owner === undefined || (userId !== undefined && userId !== owner)) return { rows: [], next: null };
      userId = owner;
    }
    const [createdAt, id] = query.cursor?.split('.').map(Number) ?? [];
    const rows = await this.deps.repository.page({
      ...(query.status !== undefined ? { status: query.status } : {}),
      ...(query.currency !== undefined ? { currency: query.currency.toUpperCase() } : {}),
      ...(query.gateway !== undefined ? { gateway: query.gateway } : {}),
      ...(query.from !== undefined ? { from: query.from } : {}),
      ...(query.to !== undefined ? { to: query.to } : {}),
      ...(userId !== undefined ? { userId } : {}),
      ...(createdAt !== undefined && id !== undefined ? { before: { createdAt, id } } : {}),
      limit: query.limit,
      timedOutAt: this.deps.now(),
    });
    const last = rows.length === query.limit ? rows.at(-1) : undefined;
    return { rows, next: last ? `${last.created_at}.${last.id}` : null };
  }

  /** A customer's latest orders, or those in a status (a customer's page in the console). */
  adminList(filter: OrderFilter): Promise<OrderRow[]> {
    return this.deps.repository.list(filter);
  }

  adminFind(no: string): Promise<OrderRow | undefined> {
    return ORDER_NO_PATTERN.test(no) ? this.deps.repository.findByNo(no) : Promise.resolve(undefined);
  }

  /** Orders as operators see them, with their customers' emails (null for an account since deleted). */
  async adminViews(rows: OrderRow[], language: RequestLanguage): Promise<AdminOrder[]> {
    const emails = await this.deps.users.emailsOf(rows.map((row) => row.user_id));
    return rows.map((row) => ({
      no: row.no,
      status: this.statusOf(row),
      customer: { id: row.user_id, email: emails.get(row.user_id) ?? null },
      plan: { id: row.plan_id, name: pickLanguage(row.plan_names, language) },
      package: { id: row.package_id, label: row.package_label, days: row.days, trafficBytes: row.traffic_bytes },
      amount: toMajor(row.amount_minor, row.decimals),
      currency: row.currency,
      gateway: row.gateway,
      paymentRef: row.payment_ref,
      createdAt: row.created_at,
    }));
  }

  // The console's overview (read only).

  /** Per currency, the amounts of the orders paid in each of the last `days` UTC days and not refunded since. */
  paidTotals(days: number[]): Promise<Array<{ currency: string; decimals: number; totals: number[] }>> {
    const now = this.deps.now();
    return this.deps.repository.paidTotals(days.map((count) => startOfUtcDays(now, count)));
  }

  /** How many of the orders made in the last `days` UTC days are in each status, every status listed. */
  async countByStatusInDays(days: number): Promise<Record<OrderStatus, number>> {
    const counts = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as Record<OrderStatus, number>;
    const rows = await this.deps.repository.countByStatusSince(startOfUtcDays(this.deps.now(), days));
    for (const row of rows) counts[row.status] = row.count;
    return counts;
  }
}
