import { type Kysely, PostgresAdapter, sql } from 'kysely';

export function isPostgres(db: Pick<Kysely<unknown>, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-incrementing integer key on either database. */
export function idColumn(db: Kysely<unknown>) {
  return isPostgres(db) ? sql`serial` : sql`integer`;
}

/** Epoch milliseconds: bigint on PostgreSQL; SQLite's integer is already 64-bit. */
export const timestampColumn = 'bigint';
