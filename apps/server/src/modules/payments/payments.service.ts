import { randomUUID } from 'node:crypto';
import type { Checkout, PaymentMethod, RequestLanguage, SandboxAction } from '@mutenet/contract';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import type { OrdersService } from '../orders/orders.service.js';
import { NotificationRejected, type PaymentGateway, type PaymentNotification } from './gateways/gateway.js';
import { SANDBOX_OUTCOME } from './gateways/sandbox.gateway.js';
import type { PaymentsRepository } from './payments.repository.js';

export type PaymentsDeps = {
  db: Executor;
  repository: PaymentsRepository;
  orders: OrdersService;
  gateways: PaymentGateway[];
  publicUrl: string;
  now: () => number;
};

/** What applying a notification did: the order's status after it, and whether it was a replay. */
export type Applied = { status: string; duplicate: boolean; applied: boolean };

export class PaymentsService {
  constructor(private readonly deps: PaymentsDeps) {}

  methods(language: RequestLanguage): PaymentMethod[] {
    return this.deps.gateways.map((gateway) => ({ id: gateway.id, name: gateway.name(language) }));
  }

  gateway(id: string): PaymentGateway | undefined {
    return this.deps.gateways.find((gateway) => gateway.id === id);
  }

  async checkout(userId: number, no: string, language: RequestLanguage): Promise<Checkout> {
    const { orders } = this.deps;
    const row = await orders.ownOrder(userId, no);
    const status = orders.statusOf(row);
    return {
      order: orders.view(row, language),
      methods: this.methods(language),
      payable: status === 'waiting' || status === 'paying',
    };
  }

  /** The customer chose a method: the order turns `paying` and the gateway says where to pay. */
  async start(userId: number, no: string, method: string, language: RequestLanguage) {
    const gateway = this.gateway(method);
    if (!gateway) throw new AppError('PAYMENT_METHOD_UNAVAILABLE');
    const row = await this.deps.orders.startPaying(userId, no, gateway.id);
    return gateway.start(
      { no: row.no, amountMinor: row.amount_minor, currency: row.currency },
      { publicUrl: this.deps.publicUrl, language },
    );
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
      amountMinor: row.amount_minor,
      currency: row.currency,
    });
    if (!applied.applied) throw new AppError('PAYMENT_ACTION_REFUSED');
    return applied;
  }

  /** A gateway's webhook: verified by the gateway, then applied. */
  notify(gatewayId: string, request: Parameters<PaymentGateway['verify']>[0]): Promise<Applied> {
    const gateway = this.gateway(gatewayId);
    if (!gateway) throw new NotificationRejected(`unknown gateway ${gatewayId}`);
    return this.apply(gateway.id, gateway.verify(request));
  }

  /**
   * Records the event and moves the order in one transaction. A replayed event changes nothing; one the lifecycle
   * refuses (e.g. a decline after success) is recorded and changes nothing; a wrong amount is refused outright.
   *
   * When the database's answer to the commit is lost, the event may or may not be recorded: that answers 503
   * (`CommitOutcomeUnknownError`), and the gateway sends the event again. Its id then finds it recorded if the first
   * commit landed (a replay, answered as done), or applies it now: once either way.
   */
  async apply(gatewayId: string, notification: PaymentNotification): Promise<Applied> {
    const applied = await inTransaction(this.deps.db, async (tx): Promise<Applied> => {
      const row = await this.deps.orders.findForPayment(tx, notification.orderNo);
      if (!row) throw new NotificationRejected('unknown order');
      const mismatch =
        (notification.amountMinor !== null && notification.amountMinor !== row.amount_minor) ||
        (notification.currency !== null && notification.currency !== row.currency);
      if (mismatch) throw new NotificationRejected('amount or currency does not match the order');
      const fresh = await this.deps.repository.with(tx).insertEvent(
        {
          gateway: gatewayId,
          event_id: notification.eventId,
          order_id: row.id,
          outcome: notification.outcome,
          amount_minor: notification.amountMinor,
          currency: notification.currency,
        },
        this.deps.now(),
      );
      // Read again when nothing changed: a copy racing this one (on any instance) may have moved the order since.
      const current = async () => this.deps.orders.statusOf((await this.deps.orders.findForPayment(tx, row.no)) ?? row);
      if (!fresh) return { status: await current(), duplicate: true, applied: false };
      const changed = await this.deps.orders.applyOutcome(tx, row.id, notification.outcome);
      const status = changed ? this.deps.orders.statusOf(changed) : await current();
      return { status, duplicate: false, applied: changed !== undefined };
    });
    // A replay too: its first delivery may have been committed and answered 503 before it could say so.
    if (applied.applied || applied.duplicate) await this.deps.orders.packagesChanged(notification.outcome);
    return applied;
  }
}
