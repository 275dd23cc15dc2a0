import { randomUUID } from 'node:crypto';
import type {
  AdminOrderDetail,
  AdminPaymentEvent,
  Checkout,
  PaymentMethod,
  RequestLanguage,
  SandboxAction,
} from '@mutenet/contract';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { pickLanguage } from '../../lib/localized.js';
import { parseMajor, toMajor } from '../../lib/money.js';
import type { AuditHook } from '../audit/audit.service.js';
import type { GatewayOutcome, OrderRow, OrdersService } from '../orders/orders.service.js';
import {
  GatewayUnavailable,
  NotificationRejected,
  type NotificationRequest,
  type PaymentEvent,
  type PaymentGateway,
} from './gateways/gateway.js';
import { SANDBOX_OUTCOME } from './gateways/sandbox.gateway.js';
import type { PaymentsRepository } from './payments.repository.js';

/** What the payments service counts, for the metrics; the command line counts nothing. */
export type PaymentsCounters = {
  notification(gateway: string, result: 'applied' | 'duplicate' | 'refused' | 'ignored' | 'unavailable'): void;
  check(gateway: string, result: 'changed' | 'unchanged' | 'failed'): void;
};

const NO_COUNTERS: PaymentsCounters = { notification: () => {}, check: () => {} };

export type PaymentsDeps = {
  db: Executor;
  repository: PaymentsRepository;
  orders: OrdersService;
  /** The configured gateways, in the order the checkout offers them. */
  gateways: PaymentGateway[];
  publicUrl: string;
  now: () => number;
  counters?: PaymentsCounters;
};

/** What applying a notification did: the order's status after it, and whether it was a replay. */
export type Applied = { status: string; duplicate: boolean; applied: boolean };

/** A refund the gateway did not take, or cannot be asked for: the order is left as it was. */
export class RefundFailed extends Error {}

/**
 * The gateway of the changes an operator makes by hand (mark paid, refund, chargeback): each is recorded as this
 * gateway's event, beside the gateways' own, with an id per order and change, so that it applies once.
 */
export const OPERATOR_GATEWAY = 'manual';

/** What each operator's change records, and the refusal when the order's status does not allow it. */
const OPERATOR_CHANGES = {
  success: { action: 'order.markPaid', refusal: 'ORDER_NOT_UNPAID' },
  refunded: { action: 'order.refund', refusal: 'ORDER_NOT_PAID' },
  rejected: { action: 'order.chargeback', refusal: 'ORDER_NOT_PAID' },
} as const;
type OperatorOutcome = keyof typeof OPERATOR_CHANGES;

/** A started payment is first asked about this long after it starts: its notification normally comes first. */
export const RECONCILE_AFTER_MS = 3 * 60_000;
/** Then again after half its age, at most this far apart… */
const RECONCILE_MAX_GAP_MS = 6 * 3600_000;
/** …and no more once it is this old: every gateway's page has expired long before. */
const RECONCILE_FOR_MS = 3 * 24 * 3600_000;
/** Started payments asked about in one run of one instance. */
const RECONCILE_BATCH = 100;

export class PaymentsService {
  readonly #counters: PaymentsCounters;

  constructor(private readonly deps: PaymentsDeps) {
    this.#counters = deps.counters ?? NO_COUNTERS;
  }

  /** The gateways that take the currency, in the operator's order. */
  methods(currency: string, language: RequestLanguage): PaymentMethod[] {
    return this.deps.gateways
      .filter((gateway) => gateway.takes(currency))
      .map((gateway) => ({ id: gateway.id, name: gateway.name(language) }));
  }

  gateway(id: string): PaymentGateway | undefined {
    return this.deps.gateways.find((gateway) => gateway.id === id);
  }

  /** True when a gateway other than the sandbox is configured: a production server without one takes no money. */
  takesRealPayments(): boolean {
    return this.deps.gateways.some((gateway) => gateway.id !== 'sandbox');
  }

  async checkout(userId: number, no: string, language: RequestLanguage): Promise<Checkout> {
    const { orders } = this.deps;
    const row = await orders.ownOrder(userId, no);
    const status = orders.statusOf(row);
    return {
      order: orders.view(row, language),
      methods: this.methods(row.currency, language),
      payable: status === 'waiting' || status === 'paying',
    };
  }

  /**
   * The customer chose a method: the order turns `paying` and the gateway says where to pay. A gateway that fails or
   * is slow answers "unavailable": the order stays payable, with this method or another.
   */
  async start(customer: { id: number; email: string }, no: string, method: string, language: RequestLanguage) {
    const { orders, publicUrl, repository, now } = this.deps;
    const gateway = this.gateway(method);
    const current = await orders.ownOrder(customer.id, no);
    if (!gateway?.takes(current.currency)) throw new AppError('PAYMENT_METHOD_UNAVAILABLE');
    const row = await orders.startPaying(customer.id, no, gateway.id);
    let started: Awaited<ReturnType<PaymentGateway['start']>>;
    try {
      started = await gateway.start(
        {
          no: row.no,
          amountMinor: row.amount_minor,
          decimals: row.decimals,
          currency: row.currency,
          email: customer.email,
          description: `${pickLanguage(row.plan_names, language)} · ${row.package_label}`,
          dueAt: row.due_at,
        },
        {
          language,
          returnUrl: `${publicUrl}/person/status/${row.no}`,
          notifyUrl: `${publicUrl}/payment/notify/${gateway.id}`,
        },
      );
    } catch (error) {
      if (error instanceof GatewayUnavailable) throw new AppError('PAYMENT_GATEWAY_UNAVAILABLE');
      throw error;
    }
    if (started.reference) {
      const at = now();
      await repository.insertAttempt(
        { orderId: row.id, gateway: gateway.id, reference: started.reference },
        at,
        at + RECONCILE_AFTER_MS,
      );
    }
    return { redirect: started.redirect };
  }

  /** The sandbox page's buttons: refused unless the order is waiting or paying, then applied as a notification. */
  async sandbox(userId: number, no: string, action: SandboxAction): Promise<Applied> {
    const gateway = this.gateway('sandbox');
    if (!gateway) throw new AppError('PAYMENT_METHOD_UNAVAILABLE');
    const { orders } = this.deps;
    const row = await orders.ownOrder(userId, no);
    const status = orders.statusOf(row);
    if (status !== 'waiting' && status !== 'paying') throw new AppError('PAYMENT_ACTION_REFUSED');
    const applied = await this.apply(gateway.id, {
      eventId: `sandbox-${randomUUID()}`,
      orderNo: row.no,
      outcome: SANDBOX_OUTCOME[action],
      amount: null,
      currency: null,
      paymentRef: null,
    });
    if (!applied.applied) throw new AppError('PAYMENT_ACTION_REFUSED');
    return applied;
  }

  /**
   * A gateway's webhook: verified (and read back, for gateways whose notification carries only an id), then each of
   * its events applied. Null when it was genuine but named nothing we act on.
   */
  async notify(gatewayId: string, request: NotificationRequest): Promise<Applied | null> {
    const gateway = this.gateway(gatewayId);
    if (!gateway) throw new NotificationRejected(`unknown gateway ${gatewayId}`);
    let applied: Applied | null = null;
    try {
      const events = await gateway.verify(request);
      for (const event of events) applied = await this.apply(gateway.id, event);
    } catch (error) {
      const result =
        error instanceof NotificationRejected ? 'refused' : error instanceof GatewayUnavailable ? 'unavailable' : null;
      if (result) this.#counters.notification(gateway.id, result);
      throw error;
    }
    this.#counters.notification(gateway.id, !applied ? 'ignored' : applied.duplicate ? 'duplicate' : 'applied');
    return applied;
  }

  /**
   * Records the event and moves the order in one transaction. A replayed event changes nothing; one the lifecycle
   * refuses (e.g. a decline after success) is recorded and changes nothing, but for a refund or chargeback that came
   * before its success, which the success then applies; a wrong amount or currency is refused outright.
   *
   * When the database's answer to the commit is lost, the event may or may not be recorded: that answers 503
   * (`CommitOutcomeUnknownError`), and the gateway sends the event again. Its id then finds it recorded if the first
   * commit landed (a replay, answered as done), or applies it now: once either way.
   */
  async apply(gatewayId: string, event: PaymentEvent): Promise<Applied> {
    const { orders } = this.deps;
    const result = await inTransaction(this.deps.db, async (tx) => {
      const row = await orders.findForPayment(tx, event.orderNo);
      if (!row) throw new NotificationRejected('unknown order');
      const amountMinor = this.#checkAmount(event, row);
      const repository = this.deps.repository.with(tx);
      const recorded = await repository.insertEvent(
        {
          gateway: gatewayId,
          event_id: event.eventId,
          order_id: row.id,
          outcome: event.outcome,
          amount_minor: amountMinor,
          currency: event.currency,
          applied: 0,
          payment_ref: event.paymentRef,
        },
        this.deps.now(),
      );
      // Read again when nothing changed: a copy racing this one (on any instance) may have moved the order since.
      const current = async () => orders.statusOf((await orders.findForPayment(tx, row.no)) ?? row);
      if (recorded === undefined)
        return { applied: { status: await current(), duplicate: true, applied: false }, moved: [] };
      const paidBy = { gateway: gatewayId, paymentRef: event.paymentRef };
      let changed = await orders.applyOutcome(tx, row.id, event.outcome, paidBy);
      if (!changed) return { applied: { status: await current(), duplicate: false, applied: false }, moved: [] };
      await repository.markApplied(recorded);
      const moved = [event.outcome];
      if (event.outcome === 'success') {
        for (const reversal of await repository.unappliedReversals(row.id, paidBy)) {
          const reversed = await orders.applyOutcome(tx, row.id, reversal.outcome as 'refunded' | 'rejected', paidBy);
          if (!reversed) break;
          await repository.markApplied(reversal.id);
          changed = reversed;
          moved.push(reversed.status as 'refunded' | 'rejected');
        }
      }
      return { applied: { status: orders.statusOf(changed), duplicate: false, applied: true }, moved };
    });
    // A replay too: its first delivery may have been committed and answered 503 before it could say so.
    const reported = result.applied.duplicate ? [event.outcome] : result.moved;
    for (const outcome of reported) await orders.packagesChanged(outcome);
    return result.applied;
  }

  /** The event's amount in the order's minor units; refused when it differs from the order's price or currency. */
  #checkAmount(event: PaymentEvent, row: OrderRow): number | null {
    if (event.currency !== null && event.currency.toUpperCase() !== row.currency) {
      throw new NotificationRejected(`currency ${event.currency} does not match the order's ${row.currency}`);
    }
    if (event.amount === null) return null;
    const minor = parseMajor(event.amount, row.decimals);
    if (minor !== row.amount_minor) {
      throw new NotificationRejected(`amount ${event.amount} does not match the order's price`);
    }
    return minor;
  }

  /**
   * Asks the gateways about the payments started more than a few minutes ago whose order has not settled, and applies
   * what they say as their notifications would: a payment whose notification was lost is activated at the next run.
   * Safe on every instance at once: each started payment is claimed by one instance per turn, and applying is
   * idempotent. Returns how many orders it changed.
   */
  async reconcile(): Promise<number> {
    const { now, repository } = this.deps;
    const at = now();
    let changed = 0;
    for (const attempt of await repository.dueAttempts(at, at - RECONCILE_FOR_MS, RECONCILE_BATCH)) {
      const gap = Math.min(
        RECONCILE_MAX_GAP_MS,
        Math.max(RECONCILE_AFTER_MS, Math.floor((at - attempt.created_at) / 2)),
      );
      if (!(await repository.claimAttempt(attempt.id, attempt.check_at, at + gap))) continue;
      const gateway = this.gateway(attempt.gateway);
      if (!gateway) continue;
      try {
        const events = await gateway.status({
          orderNo: attempt.order_no,
          reference: attempt.reference,
          currency: attempt.currency,
        });
        let moved = false;
        for (const event of events) moved = (await this.apply(gateway.id, event)).applied || moved;
        this.#counters.check(gateway.id, moved ? 'changed' : 'unchanged');
        if (moved) changed++;
      } catch (error) {
        // The gateway is down or said something we refuse: the attempt is asked about again at its next turn.
        if (!(error instanceof GatewayUnavailable || error instanceof NotificationRejected)) throw error;
        this.#counters.check(gateway.id, 'failed');
      }
    }
    return changed;
  }

  // Operator side: the console and the admin command line.

  /** An order with its events, oldest first, and when its payment was applied; NOT_FOUND for an unknown number. */
  async orderDetail(no: string, language: RequestLanguage): Promise<AdminOrderDetail> {
    const { orders, repository } = this.deps;
    const row = await orders.adminFind(no);
    if (!row) throw new AppError('NOT_FOUND');
    const [order] = await orders.adminViews([row], language);
    const events: AdminPaymentEvent[] = (await repository.eventsOf(row.id)).map((event) => ({
      gateway: event.gateway,
      eventId: event.event_id,
      outcome: event.outcome,
      amount: event.amount_minor === null ? null : toMajor(event.amount_minor, row.decimals),
      currency: event.currency,
      applied: event.applied === 1,
      receivedAt: event.created_at,
    }));
    const paid = events.findLast((event) => event.applied && event.outcome === 'success');
    return { order: order!, paidAt: paid?.receivedAt ?? null, events };
  }

  /**
   * The operator saw the money arrive: an unpaid order (also one timed out, cancelled or failed) turns `success` and
   * its package starts or queues, exactly as a gateway's success. Once: ORDER_NOT_UNPAID for a paid order, also for
   * the second of two parallel calls.
   */
  markPaid(no: string, audit?: AuditHook): Promise<OrderRow> {
    return this.#byOperator(no, 'success', audit);
  }

  /** A chargeback (a dispute the customer won) of a paid order: it turns `rejected` and its package ends now. */
  chargeback(no: string, audit?: AuditHook): Promise<OrderRow> {
    return this.#byOperator(no, 'rejected', audit);
  }

  /**
   * The operator refunds a paid order: through the gateway that took the money first, then the package ends. An order
   * marked paid by hand (no gateway payment), or one whose money went back outside the panel (`atGateway: false`),
   * just ends its package. ORDER_NOT_PAID when it is not paid, or another refund of it was made or is under way;
   * `RefundFailed` (nothing changed) when the gateway does not take it.
   */
  async refund(no: string, { atGateway = true } = {}, audit?: AuditHook): Promise<OrderRow> {
    const { orders, repository } = this.deps;
    const row = await orders.adminFind(no);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== 'success') throw new AppError('ORDER_NOT_PAID');
    // The refund's event is recorded (committed) before the gateway is asked: of two refunds at once only the one
    // that recorded it asks, so that the money goes back once. It is removed again when the gateway refuses.
    const claim = await repository.insertEvent(this.#operatorEvent(row, 'refunded'), this.deps.now());
    if (claim === undefined) throw new AppError('ORDER_NOT_PAID');
    if (atGateway && row.gateway && row.payment_ref && row.gateway !== 'sandbox') {
      try {
        await this.#refundAtGateway(row, row.gateway, row.payment_ref);
      } catch (error) {
        await repository.deleteEvent(claim);
        throw error;
      }
    }
    return this.#byOperator(no, 'refunded', audit, claim);
  }

  async #refundAtGateway(row: OrderRow, gatewayId: string, paymentRef: string): Promise<void> {
    const gateway = this.gateway(gatewayId);
    if (!gateway) {
      throw new RefundFailed(
        `order ${row.no} was paid through ${gatewayId}, which is not configured here: configure it to refund, or ` +
          'refund in its dashboard and record the refund as made already',
      );
    }
    try {
      await gateway.refund({
        orderNo: row.no,
        paymentRef,
        amountMinor: row.amount_minor,
        decimals: row.decimals,
        currency: row.currency,
      });
    } catch (error) {
      if (!(error instanceof GatewayUnavailable)) throw error;
      throw new RefundFailed(
        `${gatewayId} did not take the refund of order ${row.no} (${error.message}): nothing changed`,
      );
    }
  }

  #operatorEvent(row: OrderRow, outcome: OperatorOutcome) {
    return {
      gateway: OPERATOR_GATEWAY,
      event_id: `${outcome}-${row.no}`,
      order_id: row.id,
      outcome,
      amount_minor: row.amount_minor,
      currency: row.currency,
      applied: 0,
      payment_ref: null,
    };
  }

  /**
   * Records the operator's change as an event and moves the order in one transaction, with its audit entry; a refusal
   * rolls it all back. `claimed`: the refund's event, recorded before the gateway was asked.
   */
  async #byOperator(no: string, outcome: OperatorOutcome, audit?: AuditHook, claimed?: number): Promise<OrderRow> {
    const { orders } = this.deps;
    const { action, refusal } = OPERATOR_CHANGES[outcome];
    const changed = await inTransaction(this.deps.db, async (tx) => {
      const row = await orders.findForPayment(tx, no);
      if (!row) throw new AppError('NOT_FOUND');
      const repository = this.deps.repository.with(tx);
      const recorded = claimed ?? (await repository.insertEvent(this.#operatorEvent(row, outcome), this.deps.now()));
      const paidBy = { gateway: OPERATOR_GATEWAY, paymentRef: null };
      let moved = recorded === undefined ? undefined : await orders.applyOutcome(tx, row.id, outcome, paidBy);
      // The gateway's own notification of a refund it just took may have ended the package already.
      if (!moved && claimed !== undefined && row.status === outcome) moved = row;
      if (!moved || recorded === undefined) throw new AppError(refusal);
      await repository.markApplied(recorded);
      await audit?.(tx, {
        action,
        target: { type: 'order', id: row.no },
        before: { status: orders.statusOf(row) },
        after: { status: moved.status },
      });
      return moved;
    });
    await orders.packagesChanged(outcome satisfies GatewayOutcome);
    return changed;
  }
}
