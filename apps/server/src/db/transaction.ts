import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A connection or a transaction: repositories work on either, so that services can join their writes into one. */
export type Executor = Kysely<Database>;

export function inTransaction<T>(db: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}
