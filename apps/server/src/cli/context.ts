import type { Kysely } from 'kysely';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createUsersService, type UsersService } from '../modules/auth/users.service.js';
import { type CatalogService, createCatalogService } from '../modules/catalog/catalog.service.js';
import { createOrdersService, type OrdersService } from '../modules/orders/orders.service.js';
import { createSubscriptionService, type SubscriptionService } from '../modules/subscription/subscription.service.js';
import { connectRedis, MemoryStore, RedisStore, type Store } from '../plugins/app/store.js';
import type { Config } from '../plugins/external/env.js';

/** The module services the admin commands work through; they never reach a repository or SQL themselves. */
export type AdminServices = {
  catalog: CatalogService;
  orders: OrdersService;
  subscriptions: SubscriptionService;
  users: UsersService;
};

export type AdminContext = { services: AdminServices; close(): Promise<void> };

/**
 * Opens `DATABASE_URL` as the server does (a PostgreSQL schema other than the default is chosen in the URL, e.g.
 * `?options=-c%20search_path%3Dmy_schema`), applies the pending migrations and builds the services with the same
 * factories as the plugins.
 */
export async function openAdminContext(config: Config, now: () => number = Date.now): Promise<AdminContext> {
  const { db } = openDatabase(config.databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // With Redis the server's instances hear of the command's changes at once (the user lists nodes pull); without it
  // they pick them up within a minute.
  const store: Store = config.redisUrl ? new RedisStore(connectRedis(config.redisUrl)) : new MemoryStore(now);
  const catalog = createCatalogService(db, now);
  const subscriptions = createSubscriptionService({ db, store, publicUrl: config.publicUrl, now });
  const orders = createOrdersService(db, { catalog, subscriptions, now, timeoutMs: config.orderTimeoutMs });
  return {
    services: { catalog, orders, subscriptions, users: createUsersService(db) },
    close: async () => {
      await store.close();
      await db.destroy();
    },
  };
}
