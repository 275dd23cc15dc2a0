import type { Kysely } from 'kysely';
import { idColumn, timestampColumn } from '../column-types.js';

/**
 * Real gateways. Each payment started at a gateway is an attempt (the gateway's session, preference or invoice id):
 * reconciliation asks the gateway about it until the order settles, so that a lost notification is made good. An order
 * paid at a gateway keeps the gateway's id of the payment, which a refund names. A refund or chargeback that arrives
 * before the success it reverses is recorded unapplied, and applied when the success comes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_attempts')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('gateway', 'varchar(32)', (c) => c.notNull())
    .addColumn('reference', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    // When reconciliation asks the gateway next; claimed by moving it forward, so one instance asks at a time.
    .addColumn('check_at', timestampColumn, (c) => c.notNull())
    .addUniqueConstraint('payment_attempts_gateway_reference', ['gateway', 'reference'])
    .execute();
  await db.schema.createIndex('payment_attempts_check_at').on('payment_attempts').column('check_at').execute();
  await db.schema.createIndex('payment_attempts_order_id').on('payment_attempts').column('order_id').execute();
  await db.schema.alterTable('orders').addColumn('payment_ref', 'varchar(255)').execute();
  await db.schema
    .alterTable('payment_events')
    .addColumn('applied', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  // The gateway's payment an event is about: a kept refund applies to the success of that payment only.
  await db.schema.alterTable('payment_events').addColumn('payment_ref', 'varchar(255)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_events').dropColumn('payment_ref').execute();
  await db.schema.alterTable('payment_events').dropColumn('applied').execute();
  await db.schema.alterTable('orders').dropColumn('payment_ref').execute();
  await db.schema.dropTable('payment_attempts').execute();
}
