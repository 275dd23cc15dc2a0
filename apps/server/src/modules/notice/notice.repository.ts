import type { Executor } from '../../db/transaction.js';

const NOTICE_KEY = 'notice';

export class NoticeRepository {
  constructor(private readonly db: Executor) {}

  /** The same queries on a transaction. */
  with(executor: Executor): NoticeRepository {
    return new NoticeRepository(executor);
  }

  async get(): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', NOTICE_KEY).executeTakeFirst();
    return row?.value;
  }

  async set(value: string, now: number): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key: NOTICE_KEY, value, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
      .execute();
  }

  async clear(): Promise<void> {
    await this.db.deleteFrom('settings').where('key', '=', NOTICE_KEY).execute();
  }
}
