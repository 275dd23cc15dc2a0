import type { Kysely } from 'kysely';

/**
 * The operators' order list at 200,000 orders: newest first by keyset (creation time, then id), alone or filtered by
 * status, currency or gateway, each index led by its filter so that a page reads only its rows; a customer's orders
 * already have `orders_user_created`. An order's payment events, oldest first, by the order.
 */
const INDEXES = [
  { name: 'orders_created', columns: ['created_at', 'id'] },
  { name: 'orders_status_created', columns: ['status', 'created_at', 'id'] },
  { name: 'orders_currency_created', columns: ['currency', 'created_at', 'id'] },
  { name: 'orders_gateway_created', columns: ['gateway', 'created_at', 'id'] },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { name, columns } of INDEXES)
    await db.schema
      .createIndex(name)
      .on('orders')
      .columns([...columns])
      .execute();
  await db.schema.createIndex('payment_events_order').on('payment_events').columns(['order_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payment_events_order').execute();
  for (const { name } of INDEXES) await db.schema.dropIndex(name).execute();
}
