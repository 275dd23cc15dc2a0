import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../column-types.js';

/**
 * Drops the change notices of migrations 0005–0007 (PostgreSQL only; on SQLite they made nothing): the rows they
 * reported are read from the database on every request now, by the indexes of migrations 0001–0003 (a session by
 * its token's hash, a customer's orders and packages by customer, a link by its token's hash). `if exists`: an
 * installation that never had them migrates all the same. The catalogue's version (migration 0004) stays: it tells
 * each instance when to build its catalogue again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const statement of [
    'drop trigger if exists users_notify_change on users',
    'drop trigger if exists sessions_notify_change on sessions',
    'drop trigger if exists settings_notify_change on settings',
    'drop trigger if exists catalog_version_notify_change on catalog_version',
    'drop trigger if exists orders_notify_change on orders',
    'drop trigger if exists user_packages_insert_notify_changes on user_packages',
    'drop trigger if exists user_packages_update_notify_changes on user_packages',
    'drop trigger if exists user_packages_delete_notify_changes on user_packages',
    'drop function if exists notify_change()',
    'drop function if exists notify_changes()',
  ]) {
    await sql.raw(statement).execute(db);
  }
}
