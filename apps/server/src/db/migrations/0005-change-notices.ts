import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../column-types.js';

/**
 * PostgreSQL only: writes to the rows that instances kept in memory then send a notification naming the table and
 * the row's key, whoever wrote (an instance, the admin command line, an operator's own SQL), so that every instance
 * dropped what it kept. The channel is per schema (several schemas may share a database), as a hash, since a
 * channel's name is at most 63 bytes. Nothing is kept in memory any more: migration 0008 drops these notices.
 */
const WATCHED = [
  // The signed-in user of a session: a ban or a new email (users), a sign-out or a revocation (sessions).
  { table: 'users', key: 'id', on: 'update or delete' },
  { table: 'sessions', key: 'user_id', on: 'update or delete' },
  // The notice banner, and whatever else is a setting.
  { table: 'settings', key: 'key', on: 'insert or update or delete' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function notify_change() returns trigger language plpgsql as $$
    declare
      channel text := 'mutenet_' || md5(TG_TABLE_SCHEMA);
    begin
      if TG_LEVEL = 'STATEMENT' then
        perform pg_notify(channel, TG_TABLE_NAME || ':');
        return null;
      end if;
      if TG_OP <> 'INSERT' then
        perform pg_notify(channel, TG_TABLE_NAME || ':' || (to_jsonb(OLD) ->> TG_ARGV[0]));
      end if;
      if TG_OP <> 'DELETE' then
        perform pg_notify(channel, TG_TABLE_NAME || ':' || (to_jsonb(NEW) ->> TG_ARGV[0]));
      end if;
      return null;
    end
  $$`.execute(db);
  for (const { table, key, on } of WATCHED) {
    await sql`create trigger ${sql.id(`${table}_notify_change`)} after ${sql.raw(on)} on ${sql.table(table)}
      for each row execute function notify_change(${sql.lit(key)})`.execute(db);
  }
  // The catalogue's version moves with every write to its tables (migration 0004): one notice per statement.
  await sql`create trigger catalog_version_notify_change after update on catalog_version
    for each statement execute function notify_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const { table } of WATCHED) {
    await sql`drop trigger ${sql.id(`${table}_notify_change`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop trigger catalog_version_notify_change on catalog_version`.execute(db);
  await sql`drop function notify_change()`.execute(db);
}
