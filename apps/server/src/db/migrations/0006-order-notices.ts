import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../column-types.js';

/** PostgreSQL only: each change of an order is reported by its customer (migration 0005's `notify_change`). */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create trigger orders_notify_change after insert or update or delete on orders
    for each row execute function notify_change('user_id')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger orders_notify_change on orders`.execute(db);
}
