import type { Executor } from '../../db/transaction.js';
import { SubscriptionRepository } from './subscription.repository.js';

export const DAY_MS = 24 * 3600_000;

/** What a paid order hands over to become the customer's package. */
export type PaidOrder = {
  orderId: number;
  userId: number;
  planId: number;
  packageId: number;
  days: number;
  trafficBytes: number;
};

/** The subscription service on a database, as the plugin and the admin command line build it. */
export function createSubscriptionService(db: Executor, now: () => number): SubscriptionService {
  return new SubscriptionService(new SubscriptionRepository(db), now);
}

export class SubscriptionService {
  constructor(
    private readonly repository: SubscriptionRepository,
    private readonly now: () => number,
  ) {}

  /** True while the customer has a package that is running or waiting its turn. */
  async hasLivePackage(userId: number): Promise<boolean> {
    return (await this.repository.livePackages(userId, this.now())).length > 0;
  }

  /**
   * Makes the order's package the customer's: now when nothing runs, otherwise queued after the last one. Once per
   * order: a second call for the same order changes nothing. Runs inside the caller's transaction.
   */
  async activate(tx: Executor, order: PaidOrder): Promise<boolean> {
    const repository = this.repository.with(tx);
    const now = this.now();
    const queue = await repository.livePackages(order.userId, now);
    const startsAt = Math.max(now, ...queue.map((pkg) => pkg.ends_at));
    return repository.insert(
      {
        user_id: order.userId,
        order_id: order.orderId,
        plan_id: order.planId,
        package_id: order.packageId,
        traffic_total: order.trafficBytes,
        days: order.days,
        starts_at: startsAt,
        ends_at: startsAt + order.days * DAY_MS,
      },
      now,
    );
  }

  /** Ends the package of a refunded or charged-back order, and moves the packages queued behind it forward. */
  async endForOrder(tx: Executor, orderId: number): Promise<void> {
    const repository = this.repository.with(tx);
    const now = this.now();
    const userId = await repository.endByOrder(orderId, now);
    if (userId !== undefined) await this.#closeGaps(repository, userId, now);
  }

  /** Each queued package starts when the one before it ends, keeping its length. */
  async #closeGaps(repository: SubscriptionRepository, userId: number, now: number) {
    let cursor = now;
    for (const pkg of await repository.livePackages(userId, now)) {
      if (pkg.starts_at <= now) {
        cursor = pkg.ends_at;
        continue;
      }
      if (pkg.starts_at !== cursor) await repository.reschedule(pkg.id, cursor, cursor + (pkg.ends_at - pkg.starts_at));
      cursor += pkg.ends_at - pkg.starts_at;
    }
  }
}
