import type { Selectable } from 'kysely';
import type { PaymentEventsTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** A gateway's event as recorded: its row, but for what the insert adds (the id, the time). */
export type NewPaymentEvent = Omit<Selectable<PaymentEventsTable>, 'id' | 'created_at'>;

/** A started payment due to be asked about, with its order. */
export type AttemptToCheck = {
  id: number;
  gateway: string;
  reference: string;
  created_at: number;
  check_at: number;
  order_no: string;
  currency: string;
};

/** Statuses in which an order may still be paid at a gateway, so that reconciliation asks about its payments. */
const UNSETTLED = ['paying', 'doing', 'timeout'] as const;

export class PaymentsRepository {
  constructor(private readonly db: Executor) {}

  with(tx: Executor): PaymentsRepository {
    return new PaymentsRepository(tx);
  }

  /**
   * The recorded event's id; undefined when the gateway's event was recorded before: a replay. ON CONFLICT rather than
   * a caught error, as a failed statement would abort the PostgreSQL transaction this runs in.
   */
  async insertEvent(event: NewPaymentEvent, now: number): Promise<number | undefined> {
    const row = await this.db
      .insertInto('payment_events')
      .values({ ...event, created_at: now })
      .onConflict((oc) => oc.columns(['gateway', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * Refunds and chargebacks that came before this success of the order, oldest first: of the same gateway and, when
   * both name it, the same payment (a chargeback of an earlier, failed attempt must not end what a later one paid).
   */
  unappliedReversals(
    orderId: number,
    paidBy: { gateway: string; paymentRef: string | null },
  ): Promise<Array<{ id: number; outcome: string }>> {
    let query = this.db
      .selectFrom('payment_events')
      .select(['id', 'outcome'])
      .where('order_id', '=', orderId)
      .where('applied', '=', 0)
      .where('outcome', 'in', ['refunded', 'rejected'])
      .where('gateway', '=', paidBy.gateway);
    const { paymentRef } = paidBy;
    if (paymentRef !== null) {
      query = query.where((eb) => eb.or([eb('payment_ref', '=', paymentRef), eb('payment_ref', 'is', null)]));
    }
    return query.orderBy('id').execute();
  }

  /** An order's events in the order they were received (by the index on the order and the id, migration 0013). */
  eventsOf(orderId: number): Promise<Array<Selectable<PaymentEventsTable>>> {
    return this.db
      .selectFrom('payment_events')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async deleteEvent(eventId: number): Promise<void> {
    await this.db.deleteFrom('payment_events').where('id', '=', eventId).execute();
  }

  async markApplied(eventId: number): Promise<void> {
    await this.db.updateTable('payment_events').set({ applied: 1 }).where('id', '=', eventId).execute();
  }

  /** A payment started at a gateway; starting the same one again (the same reference) records nothing new. */
  async insertAttempt(attempt: { orderId: number; gateway: string; reference: string }, now: number, checkAt: number) {
    await this.db
      .insertInto('payment_attempts')
      .values({
        order_id: attempt.orderId,
        gateway: attempt.gateway,
        reference: attempt.reference,
        created_at: now,
        check_at: checkAt,
      })
      .onConflict((oc) => oc.columns(['gateway', 'reference']).doNothing())
      .execute();
  }

  /** Started payments due to be asked about whose order is not settled, started after `since`, oldest turn first. */
  dueAttempts(now: number, since: number, limit: number): Promise<AttemptToCheck[]> {
    return this.db
      .selectFrom('payment_attempts')
      .innerJoin('orders', 'orders.id', 'payment_attempts.order_id')
      .select([
        'payment_attempts.id',
        'payment_attempts.gateway',
        'payment_attempts.reference',
        'payment_attempts.created_at',
        'payment_attempts.check_at',
        'orders.no as order_no',
        'orders.currency',
      ])
      .where('payment_attempts.check_at', '<=', now)
      .where('payment_attempts.created_at', '>', since)
      .where('orders.status', 'in', [...UNSETTLED])
      .orderBy('payment_attempts.check_at')
      .limit(limit)
      .execute();
  }

  /**
   * Moves an attempt's next turn from the one read to `next`: true for the one caller (of all instances) that moved
   * it, which then asks the gateway; the others leave it.
   */
  async claimAttempt(id: number, seen: number, next: number): Promise<boolean> {
    const result = await this.db
      .updateTable('payment_attempts')
      .set({ check_at: next })
      .where('id', '=', id)
      .where('check_at', '=', seen)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
