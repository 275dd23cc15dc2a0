import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A connection or a transaction: repositories work on either, so that services can join their writes into one. */
export type Executor = Kysely<Database>;

/** What runs once each open transaction of `inTransaction` is committed. */
const onCommit = new WeakMap<Executor, Array<() => void>>();

export async function inTransaction<T>(db: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  const committed: Array<() => void> = [];
  const result = await db.transaction().execute((tx) => {
    onCommit.set(tx, committed);
    return work(tx);
  });
  for (const then of committed) then();
  return result;
}

/**
 * Runs `then` once what was written on `db` is committed: at once outside a transaction, after the commit inside one
 * of `inTransaction` (and not at all when it rolls back). For what an instance keeps in memory: dropped before the
 * commit, it could be read again from the rows not yet changed.
 */
export function whenCommitted(db: Executor, then: () => void): void {
  const pending = onCommit.get(db);
  if (pending) pending.push(then);
  else then();
}
