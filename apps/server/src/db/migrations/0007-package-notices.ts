import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../column-types.js';

/**
 * PostgreSQL only: each change of a customer's packages is reported by its customer. A node's push updates thousands
 * of rows in one statement, so the notices are sent per statement, each naming up to 500 customers (the keys joined
 * by commas; a notice holds at most 8,000 bytes), rather than one per row. PostgreSQL allows a transition table on a
 * trigger of one event only: one trigger per event.
 */
const EVENTS = [
  { event: 'insert', rows: 'new' },
  { event: 'update', rows: 'new' },
  { event: 'delete', rows: 'old' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function notify_changes() returns trigger language plpgsql as $$
    declare
      channel text := 'mutenet_' || md5(TG_TABLE_SCHEMA);
      keys text;
    begin
      for keys in execute format(
        'select string_agg(key, '','') from (
           select key, (row_number() over (order by key) - 1) / 500 as part
           from (select distinct %I::text as key from changed) as distinct_keys
         ) as numbered group by part',
        TG_ARGV[0])
      loop
        perform pg_notify(channel, TG_TABLE_NAME || ':' || keys);
      end loop;
      return null;
    end
  $$`.execute(db);
  for (const { event, rows } of EVENTS) {
    await sql`create trigger ${sql.id(`user_packages_${event}_notify_changes`)} after ${sql.raw(event)}
      on user_packages referencing ${sql.raw(rows)} table as changed
      for each statement execute function notify_changes('user_id')`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const { event } of EVENTS) {
    await sql`drop trigger ${sql.id(`user_packages_${event}_notify_changes`)} on user_packages`.execute(db);
  }
  await sql`drop function notify_changes()`.execute(db);
}
