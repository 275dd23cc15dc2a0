import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestApp, type TestApp } from '../test/test-app.js';
import { inTransaction, whenCommitted } from './transaction.js';

describe.each(DATABASES)('what waits for a commit (%s)', (database) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ database });
  });
  afterAll(() => server.close());

  const value = async (key: string) =>
    (await server.app.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

  it('runs after the commit of a transaction, once its writes can be read, and at once outside one', async () => {
    const seen: Array<string | undefined> = [];
    await inTransaction(server.app.db, async (tx) => {
      await tx.insertInto('settings').values({ key: 'committed', value: 'yes', updated_at: 0 }).execute();
      whenCommitted(tx, () => seen.push('after commit'));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['after commit']);
    expect(await value('committed')).toBe('yes');
    whenCommitted(server.app.db, () => seen.push('outside'));
    expect(seen).toEqual(['after commit', 'outside']);
  });

  it('never runs for a transaction rolled back', async () => {
    const seen: string[] = [];
    await expect(
      inTransaction(server.app.db, async (tx) => {
        await tx.insertInto('settings').values({ key: 'rolled-back', value: 'no', updated_at: 0 }).execute();
        whenCommitted(tx, () => seen.push('never'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(seen).toEqual([]);
    expect(await value('rolled-back')).toBeUndefined();
  });
});
