import type { Selectable } from 'kysely';
import type { PaymentEventsTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** A gateway's event as recorded: its row, but for what the insert adds (the id, the time). */
export type NewPaymentEvent = Omit<Selectable<PaymentEventsTable>, 'id' | 'created_at'>;

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
