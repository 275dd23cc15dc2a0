import type { Kysely } from 'kysely';
import { type BackupResult, backupSqlite } from '../db/backup.js';
import { type Dialect, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createUsersService, type UsersService } from '../modules/auth/users.service.js';
import { type CatalogService, createCatalogService } from '../modules/catalog/catalog.service.js';
import { type CustomersService, createCustomersService } from '../modules/customers/customers.service.js';
import { createNodesService, type NodesService } from '../modules/nodes/nodes.service.js';
import { createNoticeService, type NoticeService } from '../modules/notice/notice.service.js';
import { createOperatorsService, type OperatorsService } from '../modules/operators/operators.service.js';
import { createOrdersService, type OrdersService } from '../modules/orders/orders.service.js';
import { configuredGateways } from '../modules/payments/gateways/index.js';
import { PaymentsRepository } from '../modules/payments/payments.repository.js';
import { PaymentsService } from '../modules/payments/payments.service.js';
import { createSubscriptionService, type SubscriptionService } from '../modules/subscription/subscription.service.js';
import { connectRedis, MemoryStore, RedisStore, redisReady, type Store } from '../plugins/app/store.js';
import type { Config } from '../plugins/external/env.js';

/** How long the command waits for Redis to answer before it goes on (calls that need it then fail at once). */
const REDIS_WAIT_MS = 5000;

/** The module services the admin commands work through; they never reach a repository or SQL themselves. */
export type AdminServices = {
  catalog: CatalogService;
  /** Customers' search and the actions on them: the same service as the console's routes. */
  customers: CustomersService;
  nodes: NodesService;
  notice: NoticeService;
  /** The console's operators: the same service as the console's routes. */
  operators: OperatorsService;
  orders: OrdersService;
  /** Refunds go through the gateway that took the money, configured as the server's. */
  payments: PaymentsService;
  subscriptions: SubscriptionService;
  users: UsersService;
  /** The database file itself, for backups. */
  database: {
    dialect: Dialect;
    /** A consistent online copy of a SQLite database in `file`, replacing it if it exists. */
    backup(file: string): Promise<BackupResult>;
  };
  /** What the commands need of the configuration. */
  settings: {
    /** `PUBLIC_URL`: where node agents reach the node API. */
    publicUrl: string;
    /** True when the store is the servers' Redis, so that the nodes' heartbeats can be read. */
    sharedStore: boolean;
  };
};

export type AdminContext = { services: AdminServices; close(): Promise<void> };

/**
 * Opens `DATABASE_URL` as the server does (a PostgreSQL schema other than the default is chosen in the URL, e.g.
 * `?options=-c%20search_path%3Dmy_schema`), applies the pending migrations and builds the services with the same
 * factories as the plugins.
 */
export async function openAdminContext(config: Config, now: () => number = Date.now): Promise<AdminContext> {
  const { db, dialect } = openDatabase(config.databaseUrl, {
    poolSize: 2,
    queryTimeoutMs: config.databaseQueryTimeoutMs,
  });
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // With Redis the server's instances hear of the command's changes at once (the user lists nodes pull); without it
  // they pick them up within a minute.
  const store: Store = config.redisUrl ? new RedisStore(await reachRedis(config.redisUrl)) : new MemoryStore(now);
  const catalog = createCatalogService(db, now);
  const subscriptions = createSubscriptionService({ db, store, publicUrl: config.publicUrl, now });
  const orders = createOrdersService(db, { catalog, subscriptions, now, timeoutMs: config.orderTimeoutMs });
  return {
    services: {
      catalog,
      customers: createCustomersService(db, { subscriptions, orders }),
      nodes: createNodesService(db, store, now),
      notice: createNoticeService(db, now),
      operators: createOperatorsService(db, store, now),
      orders,
      payments: new PaymentsService({
        db,
        repository: new PaymentsRepository(db),
        orders,
        gateways: configuredGateways(config.payments),
        publicUrl: config.publicUrl,
        now,
      }),
      subscriptions,
      users: createUsersService(db),
      database: { dialect, backup: (file) => backupSqlite(config.databaseUrl, file) },
      settings: { publicUrl: config.publicUrl, sharedStore: Boolean(config.redisUrl) },
    },
    close: async () => {
      await store.close();
      await db.destroy();
    },
  };
}

/**
 * A Redis connection once it is ready, or once it has failed or the wait is over: a Redis that is away does not hold
 * the command up, and the calls that need it then fail at once (there is no offline queue) instead of waiting.
 */
async function reachRedis(url: string) {
  const redis = connectRedis(url);
  // Without a listener an unreachable Redis would print ioredis's "Unhandled error event" on every retry.
  redis.on('error', () => {});
  await redisReady(redis, REDIS_WAIT_MS);
  return redis;
}
