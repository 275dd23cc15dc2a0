import { CompiledQuery, type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTcpProxy } from '../test/tcp-proxy.js';
import { POSTGRES_URL, withPostgres } from '../test/test-app.js';
import { compiledOnce } from './compiled-query.js';
import { openDatabase } from './database.js';
import { prepareOnPostgres } from './postgres-statements.js';

// Tables of their own, in a schema of their own: any columns, not the app's.
// biome-ignore lint/suspicious/noExplicitAny: the tests' own tables are not in the app's schema type.
type AnyDb = Kysely<any>;

describe.runIf(POSTGRES_URL)('statements prepared on PostgreSQL, run after their first run', () => {
  const schema = `t_stmt_${Date.now().toString(36)}`;
  /** The answers of pg's own queries, to hold ours to. */
  const plain = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${schema}` });
  let db: AnyDb;
  /** Runs of pg's own queries (the first run of a statement on a connection), counted. */
  const pgQueries = () => vi.spyOn(pg.Query.prototype, 'submit');

  beforeAll(async () => {
    await withPostgres(async (client) => {
      await client.query(`create schema ${schema}`);
      await client.query(`set search_path = ${schema}`);
      await client.query(`create type mood as enum ('calm', 'unreadable')`);
      await client.query(`create table t (
        id integer primary key, big bigint, amount numeric(12, 2), ok boolean, name text, code varchar(8),
        data jsonb, tags integer[], at timestamptz, raw bytea, mood mood, "a b" text, unique (name))`);
      await client.query(`insert into t values
        (1, 9007199254740991, 12.50, true, 'ä "q"', 'x', '{"a": [1, null]}', '{1,2}', '2026-11-28T10:00:00Z', '\\x00ff',
          'calm', null),
        (2, -1, null, false, null, null, null, null, null, null, null, 'y'),
        (3, 0, 0.01, null, 'third', 'c', '[]', '{}', '1970-01-01T00:00:00Z', '\\x', 'unreadable', '')`);
      const { rows } = await client.query(`select 'mood'::regtype::oid as oid`);
      // pg reads an enum as text; this one fails on one value, as a parser may on what it cannot read.
      pg.types.setTypeParser(Number(rows[0].oid), (text: string) => {
        if (text === 'unreadable') throw new Error('unreadable mood');
        return text;
      });
    });
    await plain.connect();
    // One connection, so that every run after the first finds the statement prepared.
    db = openDatabase(POSTGRES_URL!, { searchPath: schema, poolSize: 1 }).db as AnyDb;
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await db?.destroy();
    await plain.end();
    await withPostgres((client) => client.query(`drop schema ${schema} cascade`));
  });

  it('reads the rows pg reads, keys in order, the same values of every type, run after run', async () => {
    const build = (from: number) =>
      db
        .selectFrom('t')
        .select(['id', 'big', 'amount', 'ok', 'name', 'code', 'data', 'tags', 'at', 'raw', 'a b', 'name as id'])
        .select(sql<number>`1`.as('__proto__'))
        .where('id', '>=', from)
        .where('id', '<', 3)
        .orderBy('t.id');
    const query = compiledOnce(db, 1, build);
    const submitted = pgQueries();
    for (const [run, from] of [1, 2, 0, 1].entries()) {
      const { sql: text, parameters } = build(from).compile();
      const expected = (await plain.query(text, [...parameters])).rows;
      submitted.mockClear();
      const rows = await query.all(from);
      expect(rows).toEqual(expected);
      expect(rows.map((row) => Object.keys(row))).toEqual(expected.map((row) => Object.keys(row)));
      for (const row of rows) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      // pg's own query only for the first run; the others only bind and run the statement.
      expect(submitted).toHaveBeenCalledTimes(run === 0 ? 1 : 0);
    }
    expect((await query.all(1))[0]).toMatchObject({ big: 9007199254740991, data: { a: [1, null] }, ok: true });
  });

  it('counts the rows a write changed, as Kysely reads them from the command', async () => {
    const text = 'update t set code = $1 where id <= $2';
    prepareOnPostgres(text);
    const counts: Array<bigint | undefined> = [];
    for (const [code, upTo] of [
      ['u', 2],
      ['v', 3],
      ['w', 0],
    ] as const) {
      counts.push((await db.executeQuery(CompiledQuery.raw(text, [code, upTo]))).numAffectedRows);
    }
    expect(counts).toEqual([2n, 3n, 0n]);
    const { rows } = await plain.query('select code from t order by id');
    expect(rows.map((row) => row.code)).toEqual(['v', 'v', 'v']);
  });

  it('fails a run with the database’s error, and the connection runs the next', async () => {
    const text = 'insert into t (id, name) values ($1, $2) returning id';
    prepareOnPostgres(text);
    const insert = (id: number, name: string) => db.executeQuery(CompiledQuery.raw(text, [id, name]));
    expect((await insert(10, 'ten')).rows).toEqual([{ id: 10 }]);
    const submitted = pgQueries();
    await expect(insert(11, 'ten')).rejects.toMatchObject({ code: '23505' });
    expect((await insert(11, 'eleven')).rows).toEqual([{ id: 11 }]);
    expect(submitted).not.toHaveBeenCalled();
    await plain.query('delete from t where id >= 10');
  });

  it('fails a run with a value pg cannot send, having sent nothing, and the connection runs the next', async () => {
    const query = compiledOnce(db, 1, (name: unknown) =>
      db
        .selectFrom('t')
        .select('id')
        .where('name', '=', name as string),
    );
    expect(await query.all('third')).toEqual([{ id: 3 }]);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(query.all(circular)).rejects.toThrow(/circular/);
    expect(await query.all('third')).toEqual([{ id: 3 }]);
  });

  it('fails a run with a row it cannot read, once the database is done, and the connection runs the next', async () => {
    const query = compiledOnce(db, 1, (id: number) => db.selectFrom('t').select(['id', 'mood']).where('id', '<=', id));
    expect(await query.all(1)).toEqual([{ id: 1, mood: 'calm' }]);
    await expect(query.all(3)).rejects.toThrow('unreadable mood');
    expect(await query.all(2)).toEqual([
      { id: 1, mood: 'calm' },
      { id: 2, mood: null },
    ]);
  });

  it('makes a connection’s rows as the statement was prepared there, the schema having changed since', async () => {
    await plain.query('create table u (id integer, mid text, tail text)');
    await plain.query(`insert into u values (1, 'm', 't')`);
    const two = openDatabase(POSTGRES_URL!, { searchPath: schema, poolSize: 2 }).db as AnyDb;
    try {
      const query = compiledOnce(two, 1, (from: number) => two.selectFrom('u').selectAll().where('id', '>=', from));
      await two.connection().execute(async (before) => {
        for (let run = 0; run < 2; run++)
          expect(await query.on(before).all(1)).toEqual([{ id: 1, mid: 'm', tail: 't' }]);
        await plain.query('alter table u drop column mid');
        // The other connection prepares the statement now, and reads the rows as they are now, run after run.
        await two.connection().execute(async (after) => {
          for (let run = 0; run < 2; run++) expect(await query.on(after).all(1)).toEqual([{ id: 1, tail: 't' }]);
        });
        // The connection that had prepared it before: PostgreSQL refuses to run it, rather than change its rows.
        await expect(query.on(before).all(1)).rejects.toMatchObject({ code: '0A000' });
      });
    } finally {
      await two.destroy();
    }
  });

  it('gives up on a connection that goes silent in a run, and runs on a new one', async () => {
    const { hostname, port } = new URL(POSTGRES_URL!);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    const silent = openDatabase(proxy.urlFor(POSTGRES_URL!), { searchPath: schema, poolSize: 1, queryTimeoutMs: 500 })
      .db as AnyDb;
    try {
      const query = compiledOnce(silent, 1, (id: number) => silent.selectFrom('t').select('name').where('id', '=', id));
      expect(await query.all(3)).toEqual([{ name: 'third' }]);
      expect(await query.all(1)).toEqual([{ name: 'ä "q"' }]);
      await proxy.cut('silence');
      await expect(query.all(3)).rejects.toMatchObject({ code: 'ETIMEDOUT' });
      await proxy.restore();
      // The pool's new connection has not prepared the statement: pg's own query prepares it there first.
      const submitted = pgQueries();
      expect(await query.all(3)).toEqual([{ name: 'third' }]);
      expect(await query.all(1)).toEqual([{ name: 'ä "q"' }]);
      expect(submitted).toHaveBeenCalledTimes(1);
    } finally {
      await silent.destroy();
      await proxy.close();
    }
  });
});
