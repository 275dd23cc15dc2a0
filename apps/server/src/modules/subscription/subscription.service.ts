import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  type PackageStat,
  type RequestLanguage,
  SUBSCRIPTION_PATH_PREFIX,
  SUBSCRIPTION_TOKEN_PATTERN,
} from '@mutenet/contract';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { type Localized, pickLanguage } from '../../lib/localized.js';
import { hashToken } from '../../lib/secrets.js';
import type { Store } from '../../plugins/app/store.js';
import type { AuditHook } from '../audit/audit.service.js';
import {
  type PackageCounters,
  PERIOD_MS,
  SubscriptionRepository,
  type TrafficEntry,
} from './subscription.repository.js';

export const DAY_MS = 24 * 3600_000;
/** Bumped whenever the set of users nodes must serve changes by a write, so that cached user lists are rebuilt. */
export const USERS_VERSION_KEY = 'users-version';
const SECRET_KEY = 'subscription_secret';

/** What the feed and the usage headers show. */
export type Usage = { upload: number; download: number; total: number; expire: number };

/** The customer behind a subscription token, with the usage the feed's headers show. */
export type Subscriber = { id: number; uuid: string; usable: boolean; usage: Usage };

/** What a paid order hands over to become the customer's package. */
export type PaidOrder = {
  orderId: number;
  userId: number;
  planId: number;
  packageId: number;
  planGroup: 'traffic' | 'durational';
  days: number;
  trafficBytes: number;
};

/** Where a package stands: running now, waiting its turn, run out of time, or ended early (refund, chargeback). */
export type PackageState = 'running' | 'queued' | 'expired' | 'ended';

/** One package of a customer, as the operator sees it. */
export type CustomerPackage = {
  id: number;
  orderId: number;
  planNames: Localized;
  group: 'traffic' | 'durational';
  state: PackageState;
  startsAt: number;
  endsAt: number;
  /** Traffic of the current period (of the last one for a package that is over). */
  trafficUsed: number;
  trafficTotal: number;
};

/** The subscription service on a database, as the plugin and the admin command line build it. */
export function createSubscriptionService(deps: Omit<SubscriptionDeps, 'repository'>): SubscriptionService {
  return new SubscriptionService({ ...deps, repository: new SubscriptionRepository(deps.db) });
}

export type SubscriptionDeps = {
  db: Executor;
  repository: SubscriptionRepository;
  store: Store;
  publicUrl: string;
  now: () => number;
};

export class SubscriptionService {
  #secret: Promise<string> | undefined;
  private readonly repository: SubscriptionRepository;
  private readonly now: () => number;

  constructor(private readonly deps: SubscriptionDeps) {
    this.repository = deps.repository;
    this.now = deps.now;
  }

  /** The customer's live packages: the running one first, then the queued ones. */
  async stat(userId: number, language: RequestLanguage): Promise<PackageStat[]> {
    const now = this.now();
    return (await this.repository.livePackagesNamed(userId, now)).map((pkg) => {
      const used = usedNow(pkg, now);
      return {
        pdName: pickLanguage(pkg.plan_names, language),
        startAt: Math.floor(pkg.starts_at / 1000),
        endAt: Math.floor(pkg.ends_at / 1000),
        trafficTotal: pkg.traffic_total,
        trafficUsed: used.total,
        trafficUsedPct: pkg.traffic_total
          ? Math.min(100, Math.round((used.total / pkg.traffic_total) * 10_000) / 100)
          : 100,
      };
    });
  }

  /** `{PUBLIC_URL}/sub/{token}`; the token is derived from the user and a nonce, so only its hash is stored. */
  async link(userId: number): Promise<string> {
    const subscriber = await this.repository.findSubscriber(userId);
    if (!subscriber) throw new Error(`user ${userId} does not exist`);
    const nonce = subscriber.sub_nonce ?? randomBytes(12).toString('base64url');
    if (!subscriber.sub_nonce) {
      await this.repository.setSubscription(userId, nonce, hashToken(await this.#token(userId, nonce)));
    }
    return `${this.deps.publicUrl}${SUBSCRIPTION_PATH_PREFIX}/${await this.#token(userId, nonce)}`;
  }

  /**
   * A new link (the old one stops at once) and a new proxy UUID (nodes drop the old one at their next pull). The
   * audit records that the link was reset, never the token or the UUID.
   */
  async reset(userId: number, audit?: AuditHook): Promise<void> {
    const nonce = randomBytes(12).toString('base64url');
    const tokenHash = hashToken(await this.#token(userId, nonce));
    await inTransaction(this.deps.db, async (tx) => {
      await this.repository.with(tx).setSubscription(userId, nonce, tokenHash, randomUUID());
      await audit?.(tx, {
        action: 'customer.resetSubscription',
        target: { type: 'customer', id: userId },
        before: null,
        after: { subscriptionReset: true },
      });
    });
    await this.touchUsers();
  }

  /** The customer of a subscription token, or undefined for an unknown, reset or banned one. */
  async subscriber(token: string): Promise<Subscriber | undefined> {
    if (!SUBSCRIPTION_TOKEN_PATTERN.test(token)) return undefined;
    const now = this.now();
    const row = await this.repository.findSubscriberByTokenHash(hashToken(token), now);
    if (!row || row.banned) return undefined;
    const { running } = row;
    return {
      id: row.id,
      uuid: row.uuid,
      usable: running !== undefined && usedNow(running, now).total < running.traffic_total,
      usage: usageOf(running, now),
    };
  }

  usableUsers(): Promise<Array<{ id: number; uuid: string }>> {
    return this.repository.usableUsers(this.now());
  }

  /** Until this moment (or a write that bumps the version) the usable users stay as they are. */
  nextScheduleChange(): Promise<number | null> {
    return this.repository.nextScheduleChange(this.now());
  }

  usersVersion(): Promise<string | null> {
    return this.deps.store.get(USERS_VERSION_KEY);
  }

  /** Marks the usable users as changed, for every instance's cached user list. */
  async touchUsers(): Promise<void> {
    await this.deps.store.increment(USERS_VERSION_KEY, 365 * DAY_MS);
  }

  /**
   * Counts pushed traffic in one transaction: each user's bytes go to their running package. A traffic package used
   * up ends now and the next queued one starts; any user whose allowance ran out leaves the nodes' user lists.
   * `alongside` writes in the same transaction what must be committed with the traffic or not at all.
   */
  async addTraffic(entries: TrafficEntry[], alongside?: (tx: Executor) => Promise<void>): Promise<void> {
    if (entries.length === 0) return;
    const now = this.now();
    const exhausted = await inTransaction(this.deps.db, async (tx) => {
      await alongside?.(tx);
      const repository = this.repository.with(tx);
      const users = await repository.addTraffic(entries, now);
      // Whose allowance ran out is locked before their packages move, as an activation or a refund locks them, in
      // id order so that two pushes cannot deadlock on these locks. A refund that ends the package this push counted
      // on may still meet it the other way round: the database then fails one of the two, and its sender (the agent,
      // the gateway) sends it again, as neither changed anything.
      for (const userId of [...users].sort((a, b) => a - b)) await repository.lockUser(userId);
      await repository.endExhaustedTrafficPackages(users, now);
      for (const userId of users) await this.#closeGaps(repository, userId, now);
      return users;
    });
    // The traffic is committed: a store that is away must not turn the push into an error, or the agent would send
    // it again and it would count twice. The nodes' lists then drop the used-up users within their minute at most.
    if (exhausted.length) await this.touchUsers().catch(() => undefined);
  }

  #token(userId: number, nonce: string): Promise<string> {
    return this.#appSecret().then((secret) =>
      createHmac('sha256', secret).update(`${userId}:${nonce}`).digest('base64url'),
    );
  }

  /** One random secret per installation, made on first use and kept in the database. */
  #appSecret(): Promise<string> {
    this.#secret ??= (async () => {
      const existing = await this.repository.getSetting(SECRET_KEY);
      if (existing) return existing;
      await this.repository.insertSettingOnce(SECRET_KEY, randomBytes(32).toString('base64url'), this.now());
      return (await this.repository.getSetting(SECRET_KEY))!;
    })();
    return this.#secret;
  }

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
    await repository.lockUser(order.userId);
    const now = this.now();
    const queue = await repository.livePackages(order.userId, now);
    const startsAt = Math.max(now, ...queue.map((pkg) => pkg.ends_at));
    return repository.insert(
      {
        user_id: order.userId,
        order_id: order.orderId,
        plan_id: order.planId,
        package_id: order.packageId,
        plan_group: order.planGroup,
        traffic_total: order.trafficBytes,
        days: order.days,
        starts_at: startsAt,
        ends_at: startsAt + order.days * DAY_MS,
      },
      now,
    );
  }

  /** Ends the package of a refunded or charged-back order, and moves the packages queued behind it forward. */
  async endForOrder(tx: Executor, order: { orderId: number; userId: number }): Promise<void> {
    const repository = this.repository.with(tx);
    // The customer's lock first, as an activation takes it: a payment activated at the same moment runs before or
    // after this whole change, never in its middle, where it would queue a package behind the one ending here and no
    // one would move it forward.
    await repository.lockUser(order.userId);
    const now = this.now();
    if (await repository.endByOrder(order.orderId, now)) await this.#closeGaps(repository, order.userId, now);
  }

  // Operator side (the admin command line).

  /** Every package of the customer, ended and expired ones too, in the order they run. */
  async packagesOf(userId: number): Promise<CustomerPackage[]> {
    const now = this.now();
    return (await this.repository.allPackagesNamed(userId)).map((pkg) => {
      const state: PackageState =
        pkg.ended_at !== null ? 'ended' : pkg.ends_at <= now ? 'expired' : pkg.starts_at > now ? 'queued' : 'running';
      return {
        id: pkg.id,
        orderId: pkg.order_id,
        planNames: JSON.parse(pkg.plan_names) as Localized,
        group: pkg.plan_group,
        state,
        startsAt: pkg.starts_at,
        endsAt: pkg.ends_at,
        trafficUsed: state === 'running' ? usedNow(pkg, now).total : pkg.traffic_used,
        trafficTotal: pkg.traffic_total,
      };
    });
  }

  /**
   * Gives the customer `days` more: the running package ends that much later and the queued ones move after it.
   * False when the customer has no live package.
   */
  async addDays(userId: number, days: number, audit?: AuditHook): Promise<boolean> {
    const now = this.now();
    const moved = await inTransaction(this.deps.db, async (tx) => {
      const repository = this.repository.with(tx);
      await repository.lockUser(userId);
      const [first] = await repository.livePackages(userId, now);
      if (!first) return false;
      await repository.extendLive(userId, days * DAY_MS, now);
      await audit?.(tx, {
        action: 'customer.addDays',
        target: { type: 'customer', id: userId },
        before: { packageId: first.id, endsAt: first.ends_at },
        after: { packageId: first.id, endsAt: first.ends_at + days * DAY_MS },
      });
      return true;
    });
    if (moved) await this.touchUsers();
    return moved;
  }

  /**
   * Raises the allowance of the running package by `bytes` (for a durational package, of every period); a customer
   * who had used it up is served again. False when nothing runs.
   */
  async addAllowance(userId: number, bytes: number, audit?: AuditHook): Promise<boolean> {
    const now = this.now();
    const raised = await inTransaction(this.deps.db, async (tx) => {
      const repository = this.repository.with(tx);
      await repository.lockUser(userId);
      const running = await repository.runningPackage(userId, now);
      if (!running) return false;
      await repository.raiseAllowance(running.id, bytes);
      await audit?.(tx, {
        action: 'customer.addTraffic',
        target: { type: 'customer', id: userId },
        before: { packageId: running.id, trafficTotal: running.traffic_total },
        after: { packageId: running.id, trafficTotal: running.traffic_total + bytes },
      });
      return true;
    });
    if (raised) await this.touchUsers();
    return raised;
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
  // The console's overview (read only).

  /** Customers with a package running now (its allowance used up or not). */
  countCustomersRunning(): Promise<number> {
    return this.repository.countCustomersRunning(this.now());
  }
}

/** What the running package has used and allows; zeros when nothing runs. */
function usageOf(running: PackageCounters | undefined, now: number): Usage {
  if (!running) return { upload: 0, download: 0, total: 0, expire: 0 };
  const used = usedNow(running, now);
  return {
    upload: used.upload,
    download: used.download,
    total: running.traffic_total,
    expire: Math.floor(running.ends_at / 1000),
  };
}

/** A package's counters as they stand now: a durational package that entered a new period has used nothing yet. */
function usedNow(pkg: PackageCounters, now: number): { upload: number; download: number; total: number } {
  const period = pkg.plan_group === 'durational' ? Math.floor((now - pkg.starts_at) / PERIOD_MS) : 0;
  if (pkg.starts_at > now || pkg.period !== period) return { upload: 0, download: 0, total: 0 };
  return { upload: pkg.upload_used, download: pkg.download_used, total: pkg.traffic_used };
}
