import { type ChangeFeed, UNHEARD } from '../../db/change-feed.js';
import { compiledOnce } from '../../db/compiled-query.js';
import { ReadCache, type Row } from '../../db/read-cache.js';
import type { Executor } from '../../db/transaction.js';

const NOTICE_KEY = 'notice';
/** The notice's row, as the change feed names it. */
const NOTICE_ROW: Row = ['settings', NOTICE_KEY];

export class NoticeRepository {
  /** Read on every dashboard visit: compiled once. */
  readonly #notice;
  /** Its answer (none is an answer too), while the database reports every change of the settings. */
  readonly #kept: ReadCache<string | null>;

  constructor(
    private readonly db: Executor,
    changes: ChangeFeed = UNHEARD,
  ) {
    this.#notice = compiledOnce(db, 1, (key: string) =>
      db.selectFrom('settings').select('value').where('key', '=', key),
    );
    this.#kept = new ReadCache(changes, { tables: ['settings'], maxEntries: 1, maxAgeMs: 60_000 });
  }

  async get(now: number): Promise<string | undefined> {
    const value = await this.#kept.read(
      NOTICE_KEY,
      now,
      async () => (await this.#notice.takeFirst(NOTICE_KEY))?.value ?? null,
      () => ({ rows: [NOTICE_ROW] }),
    );
    return value ?? undefined;
  }

  async set(value: string, now: number): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key: NOTICE_KEY, value, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
      .execute();
    this.#kept.forgetRow(...NOTICE_ROW);
  }

  async clear(): Promise<void> {
    await this.db.deleteFrom('settings').where('key', '=', NOTICE_KEY).execute();
    this.#kept.forgetRow(...NOTICE_ROW);
  }
}
