import { randomBytes } from 'node:crypto';
import { type Kysely, PostgresIntrospector } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, withPostgres } from '../test/test-app.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests' own tables are not in the app's schema type.
type AnyDb = Kysely<any>;

const schemaName = (label: string) => `t_${label}_${randomBytes(4).toString('hex')}`;

describe.runIf(POSTGRES_URL)("the PostgreSQL dialect's introspection of the current schema", () => {
  const own = schemaName('own');
  const other = schemaName('other');
  let db: AnyDb;

  beforeAll(async () => {
    await withPostgres(async (client) => {
      for (const schema of [own, other]) {
        await client.query(`create schema ${schema}`);
        await client.query(`create table ${schema}.kysely_migration (name varchar(255) primary key)`);
      }
      await client.query(`create type ${own}.mood as enum ('calm', 'cross')`);
      await client.query(`create table ${own}.accounts (
        id serial primary key, serial_id integer generated always as identity, name text not null,
        mood ${own}.mood, made_at bigint default 0)`);
      await client.query(`comment on column ${own}.accounts.name is 'shown to the customer'`);
      await client.query(`create view ${own}.named as select id, name from ${own}.accounts`);
      await client.query(`alter table ${own}.accounts drop column made_at`);
      await client.query(`create table ${other}.only_there (id integer)`);
    });
    db = openDatabase(POSTGRES_URL!, { searchPath: own, poolSize: 1 }).db as AnyDb;
  });
  afterAll(async () => {
    await db?.destroy();
    await withPostgres((client) => client.query(`drop schema ${own} cascade; drop schema ${other} cascade`));
  });

  it("describes the current schema's tables as Kysely's own introspection does, and no other schema's", async () => {
    const kyselys = new PostgresIntrospector(db);
    for (const withInternalKyselyTables of [false, true]) {
      const tables = await db.introspection.getTables({ withInternalKyselyTables });
      const expected = (await kyselys.getTables({ withInternalKyselyTables })).filter((t) => t.schema === own);
      expect(tables).toEqual(expected);
      expect(tables.map((table) => table.name)).toEqual(
        withInternalKyselyTables ? ['accounts', 'kysely_migration', 'named'] : ['accounts', 'named'],
      );
    }
    expect(await db.introspection.getSchemas()).toEqual([{ name: own }]);
    expect(await db.introspection.getMetadata()).toEqual({ tables: await db.introspection.getTables() });
  });

  it("migrates its schema beside one with Kysely's tables and others being made and dropped", {
    timeout: 60_000,
  }, async () => {
    const migrated = schemaName('migrated');
    await withPostgres((client) => client.query(`create schema ${migrated}`));
    const app = openDatabase(POSTGRES_URL!, { searchPath: migrated, poolSize: 2 }).db as Kysely<unknown>;
    // Another installation's schemas coming and going, with tables and serial columns, as test runs side by side do.
    const churn = new pg.Client({ connectionString: POSTGRES_URL });
    await churn.connect();
    let churning = true;
    let dropped = 0;
    const churned = (async () => {
      while (churning) {
        const schema = schemaName('churn');
        await churn.query(`create schema ${schema}; create table ${schema}.t (id serial primary key, name text)`);
        await churn.query(`drop schema ${schema} cascade`);
        dropped++;
      }
    })();
    let tables: string[];
    try {
      for (let run = 0; run < 40 || dropped < 40; run++) await migrateToLatest(app);
      tables = (await app.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name);
    } finally {
      churning = false;
      await churned;
      await churn.end();
      await app.destroy();
      await withPostgres((client) => client.query(`drop schema ${migrated} cascade`));
    }
    expect(dropped).toBeGreaterThanOrEqual(40);
    expect(tables).toEqual(expect.arrayContaining(['kysely_migration', 'kysely_migration_lock', 'users', 'orders']));
  });
});
