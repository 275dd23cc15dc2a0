import type { Kysely } from 'kysely';

/**
 * The console's customer search. Operators type part of an email or a name, so the search is a LIKE '%…%' that no
 * B-tree can serve: it reads the table, newest first, and stops at the page's end (at 100,000 customers a search
 * that matches few reads them all in about 10-20 ms); an id is found by the primary key. What needs an index is the
 * list of banned customers, few among many: by it, newest first, without reading the others.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('users_banned_id').on('users').columns(['banned', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_banned_id').execute();
}
