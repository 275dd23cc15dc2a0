import { type Kysely, sql } from 'kysely';
import { idColumn, isPostgres, timestampColumn } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Small keyed values the operator sets: the notice, for now.
  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', timestampColumn, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('nodes')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('names', 'text', (c) => c.notNull())
    .addColumn('labels', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('rate', isPostgres(db) ? 'double precision' : 'real', (c) => c.notNull().defaultTo(1))
    .addColumn('protocol', 'varchar(16)', (c) => c.notNull())
    .addColumn('host', 'varchar(255)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    // Transport, TLS and protocol settings as JSON: their fields differ by protocol.
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    .addColumn('updated_at', timestampColumn, (c) => c.notNull())
    .execute();

  // The subscription link's token: its hash for the lookup, and the nonce it is derived from (see subscription.service).
  await db.schema.alterTable('users').addColumn('sub_nonce', 'varchar(32)').execute();
  await db.schema.alterTable('users').addColumn('sub_token_hash', 'varchar(64)').execute();
  await db.schema.createIndex('users_sub_token_hash').on('users').column('sub_token_hash').unique().execute();

  // What kind of plan an order bought, so that its package knows whether its allowance renews.
  await db.schema
    .alterTable('orders')
    .addColumn('plan_group', 'varchar(16)', (c) => c.notNull().defaultTo('traffic'))
    .execute();
  await sql`update orders set plan_group = (select plans.plan_group from plans where plans.id = orders.plan_id)`.execute(
    db,
  );

  // Traffic of the current period (durational packages renew every 30 days from their start) by direction.
  await db.schema
    .alterTable('user_packages')
    .addColumn('plan_group', 'varchar(16)', (c) => c.notNull().defaultTo('traffic'))
    .execute();
  await db.schema
    .alterTable('user_packages')
    .addColumn('period', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('user_packages')
    .addColumn('upload_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('user_packages')
    .addColumn('download_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update user_packages set plan_group = (select plans.plan_group from plans where plans.id = user_packages.plan_id)`.execute(
    db,
  );
  await db.schema.createIndex('user_packages_active').on('user_packages').columns(['ends_at', 'starts_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('user_packages_active').execute();
  for (const column of ['download_used', 'upload_used', 'period', 'plan_group']) {
    await db.schema.alterTable('user_packages').dropColumn(column).execute();
  }
  await db.schema.alterTable('orders').dropColumn('plan_group').execute();
  await db.schema.dropIndex('users_sub_token_hash').execute();
  await db.schema.alterTable('users').dropColumn('sub_token_hash').execute();
  await db.schema.alterTable('users').dropColumn('sub_nonce').execute();
  await db.schema.dropTable('nodes').execute();
  await db.schema.dropTable('settings').execute();
}
