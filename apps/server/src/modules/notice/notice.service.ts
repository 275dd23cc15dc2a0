import type { RequestLanguage } from '@mutenet/contract';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { sanitizeOperatorHtml } from '../../lib/html.js';
import { type Localized, pickLanguage } from '../../lib/localized.js';
import type { AuditHook } from '../audit/audit.service.js';
import { NoticeRepository } from './notice.repository.js';

/** The dashboard's notice banner: operator text per language, sanitised when saved and when shown. */
export class NoticeService {
  private readonly repository: NoticeRepository;

  constructor(
    private readonly db: Executor,
    private readonly now: () => number,
  ) {
    this.repository = new NoticeRepository(db);
  }

  async content(language: RequestLanguage): Promise<string> {
    const stored = await this.repository.get();
    return stored ? sanitizeOperatorHtml(pickLanguage(stored, language)) : '';
  }

  async all(): Promise<Localized | undefined> {
    const stored = await this.repository.get();
    return stored ? (JSON.parse(stored) as Localized) : undefined;
  }

  /** Sets the notice in every language, sanitised; returns it as stored. */
  set(texts: Localized, audit?: AuditHook): Promise<Localized> {
    const clean = Object.fromEntries(
      Object.entries(texts).map(([lang, html]) => [lang, sanitizeOperatorHtml(html)]),
    ) as Localized;
    return this.#change(clean, audit);
  }

  async clear(audit?: AuditHook): Promise<void> {
    await this.#change(undefined, audit);
  }

  async #change<T extends Localized | undefined>(texts: T, audit: AuditHook | undefined): Promise<T> {
    await inTransaction(this.db, async (tx) => {
      const repository = this.repository.with(tx);
      const stored = await repository.get();
      if (texts) await repository.set(JSON.stringify(texts), this.now());
      else await repository.clear();
      await audit?.(tx, {
        action: texts ? 'notice.set' : 'notice.clear',
        target: { type: 'notice', id: 'notice' },
        before: stored ? JSON.parse(stored) : null,
        after: texts ?? null,
      });
    });
    return texts;
  }
}

export function createNoticeService(db: Executor, now: () => number): NoticeService {
  return new NoticeService(db, now);
}
