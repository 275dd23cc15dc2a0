import type { Kysely } from 'kysely';
import pg from 'pg';
import { isPostgres } from './column-types.js';
import type { Database } from './schema.js';

/** A connection or a transaction: repositories work on either, so that services can join their writes into one. */
export type Executor = Kysely<Database>;

/**
 * The COMMIT was sent but its answer never came (the connection was lost or timed out): the transaction may have
 * been committed or not, and only the database knows. The caller can ask it on another connection: `db` itself
 * outside the transaction, as the pool has dropped the lost connection, e.g. by looking for a row the transaction
 * wrote with a key of the request's own (a payment event's id). Answered 503 with `Retry-After` when not handled:
 * `code` is PostgreSQL's own SQLSTATE for this case, transaction_resolution_unknown.
 */
export class CommitOutcomeUnknownError extends Error {
  readonly code = '08007';

  constructor(cause: unknown) {
    super('Connection terminated: the answer to COMMIT was lost, the transaction may or may not be committed', {
      cause,
    });
    this.name = 'CommitOutcomeUnknownError';
  }
}

/**
 * Runs `work` in a transaction, committed when it returns and rolled back when it throws.
 *
 * When the connection is lost in the middle (a database host lost behind a firewall, found silent by the query
 * time-out), the rollback cannot be sent either; the database rolls back by itself once the connection is gone, so
 * the rollback's failure is let go and `work`'s own error (an outage, a 503) is what the caller sees. When the COMMIT
 * was sent on PostgreSQL and the connection failed before its answer, a `CommitOutcomeUnknownError` is thrown. An
 * error PostgreSQL itself answered to COMMIT (a serialization failure) means that nothing was committed, and is thrown
 * as it is, as is any error of SQLite, whose commit is local.
 */
export async function inTransaction<T>(db: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  const tx = await db.startTransaction().execute();
  // Ends the transaction and hands its connection back to the pool, whether the rollback is answered or not.
  const rollBack = () =>
    tx
      .rollback()
      .execute()
      .catch(() => {});
  let result: T;
  try {
    result = await work(tx);
  } catch (error) {
    await rollBack();
    throw error;
  }
  try {
    await tx.commit().execute();
  } catch (error) {
    await rollBack();
    if (isPostgres(db) && !(error instanceof pg.DatabaseError)) throw new CommitOutcomeUnknownError(error);
    throw error;
  }
  return result;
}
