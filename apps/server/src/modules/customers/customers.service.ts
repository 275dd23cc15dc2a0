import type { CustomerAccount, CustomerDetails, CustomerOrder } from '@mutenet/contract';
import type { Executor } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { localized } from '../../lib/localized.js';
import { toMajor } from '../../lib/money.js';
import { GIB } from '../../lib/units.js';
import type { AuditHook } from '../audit/audit.service.js';
import { type AccountQuery, createUsersService, type UsersService } from '../auth/users.service.js';
import type { OrdersService } from '../orders/orders.service.js';
import type { SubscriptionService } from '../subscription/subscription.service.js';

/** How many of a customer's latest orders their page shows. */
const RECENT_ORDERS = 20;

export type CustomersDeps = { users: UsersService; subscriptions: SubscriptionService; orders: OrdersService };

/** The customers service on a database, as the console's routes and the admin command line build it. */
export function createCustomersService(db: Executor, deps: Omit<CustomersDeps, 'users'>): CustomersService {
  return new CustomersService({ users: createUsersService(db), ...deps });
}

/**
 * Operators' view and care of customers: the search, a customer's page (account, packages, orders, sessions, link)
 * and the actions on them. It composes the users, subscription and orders services; the console's routes and the
 * `admin user` commands both work through it. Each change takes the audit hook the console binds to its operator.
 */
export class CustomersService {
  constructor(private readonly deps: CustomersDeps) {}

  /** Customers, newest first, a page at a time (`next`: the `beforeId` of the following page, null at the end). */
  async search(query: AccountQuery): Promise<{ customers: CustomerAccount[]; next: number | null }> {
    const { accounts, next } = await this.deps.users.search(query);
    return { customers: accounts, next };
  }

  /** The customer's account; NOT_FOUND (404) when there is none. */
  async account(id: number): Promise<CustomerAccount> {
    const account = await this.deps.users.get(id);
    if (!account) throw new AppError('NOT_FOUND');
    return account;
  }

  /** A customer's page: their account, every package in the order they run, latest orders, sessions and link. */
  async details(id: number): Promise<CustomerDetails> {
    const { users, subscriptions, orders } = this.deps;
    const account = await this.account(id);
    const [packages, orderRows, sessions, subscriptionUrl] = await Promise.all([
      subscriptions.packagesOf(id),
      orders.adminList({ userId: id, limit: RECENT_ORDERS }),
      users.sessionsOf(id),
      subscriptions.link(id),
    ]);
    return {
      account,
      packages: packages.map((pkg) => ({ ...pkg, planNames: localized(pkg.planNames.en ?? '', pkg.planNames) })),
      orders: orderRows.map(
        (row): CustomerOrder => ({
          no: row.no,
          status: orders.statusOf(row),
          amount: toMajor(row.amount_minor, row.decimals),
          currency: row.currency,
          gateway: row.gateway,
          createdAt: row.created_at,
        }),
      ),
      sessions,
      subscriptionUrl,
    };
  }

  /**
   * Bans the customer (signed out everywhere, no sign-in, no link) or lifts the ban; nodes drop or take them back at
   * their next pull.
   */
  async setBanned(id: number, banned: boolean, audit?: AuditHook): Promise<void> {
    if (!(await this.deps.users.setBanned(id, banned, audit))) throw new AppError('NOT_FOUND');
    await this.deps.subscriptions.touchUsers();
  }

  /** Extends the running package by `days` and moves the queued ones after it. */
  async addDays(id: number, days: number, audit?: AuditHook): Promise<void> {
    await this.account(id);
    if (!(await this.deps.subscriptions.addDays(id, days, audit))) throw new AppError('CUSTOMER_NO_RUNNING_PACKAGE');
  }

  /** Raises the running package's allowance by `gb` GB (GiB), of every period for a durational package. */
  async addTraffic(id: number, gb: number, audit?: AuditHook): Promise<void> {
    await this.account(id);
    const bytes = Math.round(gb * GIB);
    if (!(await this.deps.subscriptions.addAllowance(id, bytes, audit))) {
      throw new AppError('CUSTOMER_NO_RUNNING_PACKAGE');
    }
  }

  /** A new subscription link and proxy UUID: the old link stops at once, nodes drop the old UUID at their next pull. */
  async resetSubscription(id: number, audit?: AuditHook): Promise<void> {
    await this.account(id);
    await this.deps.subscriptions.reset(id, audit);
  }

  /** Ends one of the customer's sessions; NOT_FOUND when it is not one of theirs. */
  async revokeSession(id: number, sessionId: number, audit?: AuditHook): Promise<void> {
    await this.account(id);
    if (!(await this.deps.users.revokeSession(id, sessionId, audit))) throw new AppError('NOT_FOUND');
  }
}
