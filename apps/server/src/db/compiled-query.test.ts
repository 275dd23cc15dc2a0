import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, POSTGRES_URL, startTestApp, type TestApp } from '../test/test-app.js';
import { compiledOnce } from './compiled-query.js';
import { openDatabase } from './database.js';
import { inTransaction } from './transaction.js';

describe.each(DATABASES)('a query compiled once (%s)', (database) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ database });
    const { db } = server.app;
    await db
      .insertInto('settings')
      .values(
        ['alpha', 'beta', 'gamma', "o'quote", 'zeta'].map((key, index) => ({
          key,
          value: `v${index}`,
          updated_at: 1000 * index,
        })),
      )
      .execute();
  });
  afterAll(() => server.close());

  it('answers what the same query built anew answers, for each call’s values, keeping its constants', async () => {
    const { db } = server.app;
    const build = (from: number, key: string) =>
      db
        .selectFrom('settings')
        .select(['key', 'value'])
        .where('updated_at', '>=', from)
        .where('key', '!=', key)
        .where('value', 'like', 'v%')
        .orderBy('key');
    const query = compiledOnce(db, 2, build);
    for (const [from, key] of [
      [0, 'alpha'],
      [2000, 'gamma'],
      [1000, "o'quote"],
      [9999, 'zeta'],
      [0, 'nothing'],
    ] as const) {
      const expected = await build(from, key).execute();
      expect(await query.all(from, key)).toEqual(expected);
      expect(await query.takeFirst(from, key)).toEqual(expected[0]);
    }
    expect((await query.all(0, 'none')).map((row) => row.key)).toEqual(['alpha', 'beta', 'gamma', "o'quote", 'zeta']);
    expect(await query.takeFirst(9999, 'none')).toBeUndefined();
  });

  it('runs in a transaction, compiled once for the instance and the transaction, and reads what it wrote', async () => {
    const { db } = server.app;
    let builds = 0;
    const query = compiledOnce(db, 1, (key: string) => {
      builds++;
      return db.selectFrom('settings').select('value').where('key', '=', key);
    });
    expect(await query.takeFirst('alpha')).toEqual({ value: 'v0' });
    // Rolled back, so that the other tests find the rows as they were.
    let seen: unknown;
    const rolledBack = inTransaction(db, async (tx) => {
      await tx.updateTable('settings').set({ value: 'in the transaction' }).where('key', '=', 'beta').execute();
      seen = await query.on(tx).takeFirst('beta');
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(seen).toEqual({ value: 'in the transaction' });
    expect(await query.takeFirst('beta')).toEqual({ value: 'v1' });
    expect(builds).toBe(1);
  });

  it('refuses, on its first run, a value that does not end up a parameter', async () => {
    const { db } = server.app;
    const query = compiledOnce(db, 2, (key: string, _unused: number) =>
      db.selectFrom('settings').select('key').where('key', '=', key),
    );
    await expect(query.all('alpha', 1)).rejects.toThrow(/value 1 is not a parameter/);
  });

  if (database === 'sqlite') {
    it('reads at once on a free connection, without waiting for Kysely to hand it over', async () => {
      const { db } = server.app;
      const query = compiledOnce(db, 1, (key: string) =>
        db.selectFrom('settings').select('value').where('key', '=', key),
      );
      // Kysely holds its one connection for the callback: a read through Kysely would wait for it, here for good.
      const answered = await db.connection().execute(() => query.takeFirst('alpha'));
      expect(answered).toEqual({ value: 'v0' });
    });

    it('waits, while another request’s transaction is open, and reads what it committed, never what it had not', async () => {
      const { db } = server.app;
      const query = compiledOnce(db, 1, (key: string) =>
        db.selectFrom('settings').select('value').where('key', '=', key),
      );
      let read: Promise<{ value: string } | undefined> | undefined;
      await inTransaction(db, async (tx) => {
        await tx.updateTable('settings').set({ value: 'not committed' }).where('key', '=', 'beta').execute();
        read = query.takeFirst('beta');
        await new Promise((resolve) => setTimeout(resolve, 20));
        await tx.updateTable('settings').set({ value: 'committed' }).where('key', '=', 'beta').execute();
      });
      expect(await read).toEqual({ value: 'committed' });
      await db.updateTable('settings').set({ value: 'v1' }).where('key', '=', 'beta').execute();
    });
  }

  if (database === 'postgres') {
    it('runs on PostgreSQL as a statement its connection prepares once', async () => {
      // One connection, so that its prepared statements can be seen (they are the connection's own).
      const { db } = openDatabase(POSTGRES_URL!, { searchPath: server.installation.schema!, poolSize: 1 });
      try {
        const query = compiledOnce(db, 1, (key: string) =>
          db.selectFrom('settings').select('value').where('key', '=', key).where('value', '!=', 'prepared'),
        );
        for (const [key, value] of [
          ['alpha', 'v0'],
          ['beta', 'v1'],
          ['gamma', 'v2'],
        ]) {
          expect(await query.takeFirst(key!)).toEqual({ value });
        }
        const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db);
        expect(
          rows.filter((row) => row.statement.includes("'prepared'") || row.statement.includes('"value" !=')),
        ).toHaveLength(1);
      } finally {
        await db.destroy();
      }
    });
  }
});
