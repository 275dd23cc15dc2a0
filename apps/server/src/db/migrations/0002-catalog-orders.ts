import { type Kysely, sql } from 'kysely';
import { idColumn, timestampColumn } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('currencies')
    .addColumn('code', 'varchar(3)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('plans')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('plan_group', 'varchar(16)', (c) => c.notNull())
    .addColumn('names', 'text', (c) => c.notNull())
    .addColumn('contents', 'text', (c) => c.notNull())
    .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('packages')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id'))
    .addColumn('label', 'varchar(64)', (c) => c.notNull())
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('traffic_bytes', 'bigint', (c) => c.notNull())
    .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('packages_plan_id').on('packages').column('plan_id').execute();

  await db.schema
    .createTable('package_prices')
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id').onDelete('cascade'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('price_minor', 'bigint', (c) => c.notNull())
    .addColumn('real_minor', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('package_prices_pk', ['package_id', 'currency'])
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('no', 'varchar(24)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id'))
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id'))
    .addColumn('plan_names', 'text', (c) => c.notNull())
    .addColumn('package_label', 'varchar(64)', (c) => c.notNull())
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('traffic_bytes', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('gateway', 'varchar(32)')
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    .addColumn('updated_at', timestampColumn, (c) => c.notNull())
    .addColumn('due_at', timestampColumn, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_user_created').on('orders').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('orders_status_due').on('orders').columns(['status', 'due_at']).execute();
  // At most one unfinished order per customer and plan: parallel place-order requests cannot make two.
  await db.schema
    .createIndex('orders_one_open_per_plan')
    .on('orders')
    .columns(['user_id', 'plan_id'])
    .unique()
    .where(sql.ref('status'), 'in', ['waiting', 'paying'])
    .execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('gateway', 'varchar(32)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint')
    .addColumn('currency', 'varchar(3)')
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    .addUniqueConstraint('payment_events_gateway_event', ['gateway', 'event_id'])
    .execute();

  await db.schema
    .createTable('user_packages')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    // One package per order: a repeated payment notification cannot activate it twice.
    .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id'))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id'))
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id'))
    .addColumn('traffic_total', 'bigint', (c) => c.notNull())
    .addColumn('traffic_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('starts_at', timestampColumn, (c) => c.notNull())
    .addColumn('ends_at', timestampColumn, (c) => c.notNull())
    .addColumn('ended_at', timestampColumn)
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_packages_user_ends').on('user_packages').columns(['user_id', 'ends_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'user_packages',
    'payment_events',
    'orders',
    'package_prices',
    'packages',
    'plans',
    'currencies',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
