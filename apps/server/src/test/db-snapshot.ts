import { sql } from 'kysely';
import type { TestApp } from './test-app.js';

export type Row = Record<string, unknown>;
export type DatabaseSnapshot = Record<string, Row[]>;

/**
 * Every table of the app's database, as the database itself lists them (so that a table added later is included),
 * each with all its rows in a fixed order: two snapshots are equal only when nothing was written in between.
 */
export async function snapshotDatabase(app: TestApp): Promise<DatabaseSnapshot> {
  const db = app.app.db;
  const tables =
    app.app.dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  const snapshot: DatabaseSnapshot = {};
  for (const name of tables.rows.map((row) => row.name).sort()) {
    const { rows } = await sql<Row>`select * from ${sql.table(name)}`.execute(db);
    const keyed = rows.map((row) => [JSON.stringify(row), row] as const);
    snapshot[name] = keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  }
  return snapshot;
}
