import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as accounts from './migrations/0001-accounts.js';
import * as catalogOrders from './migrations/0002-catalog-orders.js';
import * as nodesSubscriptions from './migrations/0003-nodes-subscriptions.js';
import * as catalogVersion from './migrations/0004-catalog-version.js';
import * as changeNotices from './migrations/0005-change-notices.js';
import * as orderNotices from './migrations/0006-order-notices.js';
import * as packageNotices from './migrations/0007-package-notices.js';
import * as dropChangeNotices from './migrations/0008-drop-change-notices.js';
import * as trafficPushes from './migrations/0009-traffic-pushes.js';
import * as paymentAttempts from './migrations/0010-payment-attempts.js';
import * as operators from './migrations/0011-operators.js';
import * as customerSearch from './migrations/0012-customer-search.js';
import * as orderFilters from './migrations/0013-order-filters.js';
import * as passkeys from './migrations/0014-passkeys.js';
import * as overview from './migrations/0015-overview.js';

// Listed here rather than read from a folder, so that the built server needs no file-system scan.
const MIGRATIONS: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-catalog-orders': catalogOrders,
  '0003-nodes-subscriptions': nodesSubscriptions,
  '0004-catalog-version': catalogVersion,
  '0005-change-notices': changeNotices,
  '0006-order-notices': orderNotices,
  '0007-package-notices': packageNotices,
  '0008-drop-change-notices': dropChangeNotices,
  '0009-traffic-pushes': trafficPushes,
  '0010-payment-attempts': paymentAttempts,
  '0011-operators': operators,
  '0012-customer-search': customerSearch,
  '0013-order-filters': orderFilters,
  '0014-passkeys': passkeys,
  '0015-overview': overview,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** The app's migrations on `db`. On PostgreSQL its tables go in the current schema (postgres-dialect.ts). */
export function migratorOf(db: Kysely<unknown>): Migrator {
  return new Migrator({ db, provider });
}

/**
 * Applies every pending migration; safe to call on every start and from several instances on PostgreSQL (Kysely locks
 * its migration table), from one process at a time on SQLite (`cluster.ts`).
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const { error, results } = await migratorOf(db).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}
