import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../column-types.js';

/** The tables the customer's catalogue (plans, packages, prices, currencies) is read from. */
const CATALOG_TABLES = ['plans', 'packages', 'package_prices', 'currencies'] as const;
const OPERATIONS = ['insert', 'update', 'delete'] as const;

/**
 * A number that every write to the catalogue's tables raises, in the writing transaction, by trigger: instances keep
 * the catalogue they built and build it again only when the number moved, whoever wrote (an instance, the admin
 * command line, or an operator's own SQL).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalog_version')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into catalog_version (id, version) values (1, 0)`.execute(db);
  if (isPostgres(db)) {
    await sql`create function catalog_version_raise() returns trigger language plpgsql as $$
      begin
        update catalog_version set version = version + 1 where id = 1;
        return null;
      end
    $$`.execute(db);
    for (const table of CATALOG_TABLES) {
      await sql`create trigger ${sql.id(`${table}_catalog_version`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function catalog_version_raise()`.execute(db);
    }
    return;
  }
  for (const table of CATALOG_TABLES) {
    for (const operation of OPERATIONS) {
      await sql`create trigger ${sql.id(`${table}_${operation}_catalog_version`)}
        after ${sql.raw(operation)} on ${sql.table(table)}
        begin update catalog_version set version = version + 1 where id = 1; end`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of CATALOG_TABLES) {
      await sql`drop trigger ${sql.id(`${table}_catalog_version`)} on ${sql.table(table)}`.execute(db);
    }
    await sql`drop function catalog_version_raise()`.execute(db);
  } else {
    for (const table of CATALOG_TABLES) {
      for (const operation of OPERATIONS) {
        await sql`drop trigger ${sql.id(`${table}_${operation}_catalog_version`)}`.execute(db);
      }
    }
  }
  await db.schema.dropTable('catalog_version').execute();
}
