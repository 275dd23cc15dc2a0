import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { migratorOf } from '../../db/migrate.js';
import { DATABASES, POSTGRES_URL, type TestDatabase, withPostgres } from '../../test/test-app.js';
import dbPlugin from './db.js';

/** A database of its own for each case: a SQLite file, or a PostgreSQL schema. */
async function emptyDatabase(database: TestDatabase) {
  if (database === 'sqlite') {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-db-'));
    return { url: `sqlite:${path.join(dir, 'db.db')}`, drop: () => fs.rm(dir, { recursive: true, force: true }) };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await withPostgres((client) => client.query(`create schema ${schema}`));
  return {
    url: POSTGRES_URL!,
    searchPath: schema,
    drop: () => withPostgres((client) => client.query(`drop schema ${schema} cascade`)),
  };
}

/** The triggers of the current schema, by name (SQLite's: the catalogue version's, made by migration 0004). */
async function triggersOf(db: Kysely<unknown>, database: TestDatabase): Promise<string[]> {
  const { rows } =
    database === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' order by name`.execute(db)
      : await sql<{ name: string }>`select distinct t.tgname as name from pg_trigger t
          join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and not t.tgisinternal order by name`.execute(db);
  return rows.map((row) => row.name);
}

describe.each(DATABASES)('the db plugin on %s', (database) => {
  let target: Awaited<ReturnType<typeof emptyDatabase>>;
  beforeAll(async () => {
    target = await emptyDatabase(database);
  });
  afterAll(() => target?.drop());

  it('brings an installation made before migration 0008 up to date, which drops the change notices', async () => {
    const before = openDatabase(target.url, target.searchPath ? { searchPath: target.searchPath } : {});
    const db = before.db as Kysely<unknown>;
    expect((await migratorOf(db).migrateTo('0007-package-notices')).error).toBeUndefined();
    const notices = (await triggersOf(db, database)).filter((name) => name.includes('notify'));
    expect(notices.length).toBe(database === 'postgres' ? 8 : 0);
    await before.db.destroy();

    const app = Fastify();
    await app.register(dbPlugin, { databaseUrl: target.url, queryTimeoutMs: 5000, searchPath: target.searchPath });
    try {
      await app.ready();
      const migrated = await app.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect(migrated.map((row) => (row as { name: string }).name)).toContain('0008-drop-change-notices');
      const triggers = await triggersOf(app.db as Kysely<unknown>, database);
      expect(triggers.filter((name) => name.includes('notify'))).toEqual([]);
      // The catalogue's version stays raised by its own triggers.
      expect(triggers.filter((name) => name.includes('catalog_version'))).not.toEqual([]);
      if (database === 'postgres') {
        const { rows } = await sql<{ name: string }>`select p.proname as name from pg_proc p
          join pg_namespace n on n.oid = p.pronamespace where n.nspname = current_schema()`.execute(app.db);
        expect(rows.map((row) => row.name)).toEqual(['catalog_version_raise']);
      }
      await app.pingDatabase();
    } finally {
      await app.close();
    }
  });
});
