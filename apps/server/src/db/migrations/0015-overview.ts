import type { Kysely } from 'kysely';
import { timestampColumn } from '../column-types.js';

/**
 * The console's overview. `node_traffic_days`: the bytes each node carried each UTC day (`day` is its 00:00 UTC),
 * added by every traffic push in the push's own transaction, so that a push counts there exactly once too; a row per
 * node and day is small enough to keep. And the indexes the overview's counts read by time: paid orders by the time
 * they were paid (a paid order's last move) and customers by when they signed up (orders by when they were made use
 * 0013's `orders_created`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('node_traffic_days')
    .addColumn('day', timestampColumn, (c) => c.notNull())
    .addColumn('node_id', 'integer', (c) => c.notNull())
    .addColumn('upload', 'bigint', (c) => c.notNull())
    .addColumn('download', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('node_traffic_days_pk', ['day', 'node_id'])
    .execute();
  await db.schema.createIndex('orders_status_updated').on('orders').columns(['status', 'updated_at']).execute();
  await db.schema.createIndex('users_created_at').on('users').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_created_at').execute();
  await db.schema.dropIndex('orders_status_updated').execute();
  await db.schema.dropTable('node_traffic_days').execute();
}
