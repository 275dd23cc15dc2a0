import type { Executor } from '../../db/transaction.js';

export type NewPaymentEvent = {
  gateway: string;
  event_id: string;
  order_id: number;
  outcome: string;
  amount_minor: number | null;
  currency: string | null;
};

export class PaymentsRepository {
  constructor(private readonly db: Executor) {}

  with(tx: Executor): PaymentsRepository {
    return new PaymentsRepository(tx);
  }

  /**
   * False when the gateway's event was recorded before: a replay. ON CONFLICT rather than a caught error, as a
   * failed statement would abort the PostgreSQL transaction this runs in.
   */
  async insertEvent(event: NewPaymentEvent, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('payment_events')
      .values({ ...event, created_at: now })
      .onConflict((oc) => oc.columns(['gateway', 'event_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }
}
