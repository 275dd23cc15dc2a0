import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as accounts from './migrations/0001-accounts.js';
import * as catalogOrders from './migrations/0002-catalog-orders.js';

// Listed here rather than read from a folder, so that the built server needs no file-system scan.
const MIGRATIONS: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-catalog-orders': catalogOrders,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Applies every pending migration; safe to call on every start and from several instances. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}
