import type { Kysely } from 'kysely';
import { timestampColumn } from '../column-types.js';

/**
 * A record of each traffic push a node made, written in the push's own transaction: when the answer to its COMMIT is
 * lost, whether the push was counted is asked of this table on another connection, and a resend of it is told from a
 * new push. Kept a day (pruned by `pushed_at`): far longer than an agent waits before it sends again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('traffic_pushes')
    // Drawn by the server for each push it counts.
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('node_id', 'integer', (c) => c.notNull())
    // SHA-256 of the pushed entries, in hex.
    .addColumn('digest', 'varchar(64)', (c) => c.notNull())
    .addColumn('pushed_at', timestampColumn, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('traffic_pushes_pushed_at').on('traffic_pushes').column('pushed_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('traffic_pushes').execute();
}
