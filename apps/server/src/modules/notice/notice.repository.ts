import { compiledOnce } from '../../db/compiled-query.js';
import type { Executor } from '../../db/transaction.js';

const NOTICE_KEY = 'notice';

export class NoticeRepository {
  /** Read on every dashboard visit: compiled once. */
  readonly #notice;

  constructor(private readonly db: Executor) {
    this.#notice = compiledOnce(db, 1, (key: string) =>
      db.selectFrom('settings').select('value').where('key', '=', key),
    );
  }

  async get(): Promise<string | undefined> {
    return (await this.#notice.takeFirst(NOTICE_KEY))?.value;
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
