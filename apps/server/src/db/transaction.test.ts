import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.js';
import { DATABASES, POSTGRES_URL, startTestApp, type TestApp } from '../test/test-app.js';
import { type DatabaseHandle, openDatabase } from './database.js';
import { CommitOutcomeUnknownError, type Executor, inTransaction } from './transaction.js';

const storedValue = async (db: Executor, key: string) =>
  (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

const setting = (key: string) => ({ key, value: 'written', updated_at: 0 });

describe.each(DATABASES)('a transaction (%s)', (database) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ database });
  });
  afterAll(() => server.close());

  it('is committed when its work returns, with what the work returned', async () => {
    const answer = await inTransaction(server.app.db, async (tx) => {
      await tx.insertInto('settings').values(setting('committed')).execute();
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await storedValue(server.app.db, 'committed')).toBe('written');
  });

  it("is rolled back when its work throws, which throws the work's error", async () => {
    await expect(
      inTransaction(server.app.db, async (tx) => {
        await tx.insertInto('settings').values(setting('rolled-back')).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await storedValue(server.app.db, 'rolled-back')).toBeUndefined();
  });
});

/** PostgreSQL through a proxy that cuts one connection at a chosen statement, as a firewall that drops a host. */
describe.runIf(POSTGRES_URL)('a transaction whose PostgreSQL connection falls silent', () => {
  let server: TestApp;
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    server = await startTestApp({ database: 'postgres' });
    const { hostname, port } = new URL(POSTGRES_URL!);
    proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    handle = openDatabase(proxy.urlFor(POSTGRES_URL!), {
      searchPath: server.installation.schema!,
      poolSize: 1,
      queryTimeoutMs: 1000,
    });
  });
  afterAll(async () => {
    await handle?.db.destroy();
    await proxy?.close();
    await server?.close();
  });

  const write = (key: string) =>
    inTransaction(handle.db, async (tx) => {
      await tx.insertInto('settings').values(setting(key)).execute();
    });

  it("fails with the statement's time-out after BEGIN, not with the rollback's failure on the dead connection", async () => {
    const cut = proxy.silenceAt('insert into "settings"', 'before');
    await expect(write('after-begin')).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    await cut;
    expect(await storedValue(server.app.db, 'after-begin')).toBeUndefined();
    // The pool has dropped the silent connection: the next transaction runs on a new one.
    await write('after-begin');
    expect(await storedValue(server.app.db, 'after-begin')).toBe('written');
  });

  it('says the outcome is unknown when the answer to COMMIT is lost, and another connection finds it committed', async () => {
    const cut = proxy.silenceAt('commit', 'after');
    const failed = await write('answer-lost').catch((error: unknown) => error);
    await cut;
    expect(failed).toBeInstanceOf(CommitOutcomeUnknownError);
    expect(failed).toMatchObject({ code: '08007', cause: { code: 'ETIMEDOUT' } });
    expect(await storedValue(server.app.db, 'answer-lost')).toBe('written');
  });

  it('says the same when COMMIT itself is lost, and another connection finds nothing committed', async () => {
    const cut = proxy.silenceAt('commit', 'before');
    await expect(write('never-arrived')).rejects.toBeInstanceOf(CommitOutcomeUnknownError);
    await cut;
    // COMMIT never reached the database: nothing of the transaction can be read.
    expect(await storedValue(server.app.db, 'never-arrived')).toBeUndefined();
  });
});
