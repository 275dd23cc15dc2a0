import type { Executor } from '../../db/transaction.js';

export type UserPackageRow = {
  id: number;
  user_id: number;
  order_id: number;
  plan_id: number;
  package_id: number;
  traffic_total: number;
  traffic_used: number;
  days: number;
  starts_at: number;
  ends_at: number;
};

export type NewUserPackage = Omit<UserPackageRow, 'id' | 'traffic_used'>;

const COLUMNS = [
  'id',
  'user_id',
  'order_id',
  'plan_id',
  'package_id',
  'traffic_total',
  'traffic_used',
  'days',
  'starts_at',
  'ends_at',
] as const;

export class SubscriptionRepository {
  constructor(private readonly db: Executor) {}

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

  /** False when the order already has its package (ON CONFLICT: this runs inside the payment's transaction). */
  async insert(pkg: NewUserPackage, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('user_packages')
      .values({ ...pkg, created_at: now })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Ends the package of an order now; returns its user, or undefined when there was nothing to end. */
  async endByOrder(orderId: number, now: number): Promise<number | undefined> {
    const row = await this.db
      .updateTable('user_packages')
      .set((eb) => ({
        ended_at: now,
        ends_at: eb.case().when('ends_at', '>', now).then(now).else(eb.ref('ends_at')).end(),
      }))
      .where('order_id', '=', orderId)
      .where('ended_at', 'is', null)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  async reschedule(id: number, startsAt: number, endsAt: number): Promise<void> {
    await this.db
      .updateTable('user_packages')
      .set({ starts_at: startsAt, ends_at: endsAt })
      .where('id', '=', id)
      .execute();
  }
}
