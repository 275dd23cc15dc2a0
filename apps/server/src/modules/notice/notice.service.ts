import type { RequestLanguage } from '@mutenet/contract';
import type { Executor } from '../../db/transaction.js';
import { sanitizeOperatorHtml } from '../../lib/html.js';
import { type Localized, pickLanguage } from '../../lib/localized.js';
import { NoticeRepository } from './notice.repository.js';

/** The dashboard's notice banner: operator text per language, sanitised when saved and when shown. */
export class NoticeService {
  constructor(
    private readonly repository: NoticeRepository,
    private readonly now: () => number,
  ) {}

  async content(language: RequestLanguage): Promise<string> {
    const stored = await this.repository.get();
    return stored ? sanitizeOperatorHtml(pickLanguage(stored, language)) : '';
  }

  async all(): Promise<Localized | undefined> {
    const stored = await this.repository.get();
    return stored ? (JSON.parse(stored) as Localized) : undefined;
  }

  set(texts: Localized): Promise<void> {
    const clean = Object.fromEntries(Object.entries(texts).map(([lang, html]) => [lang, sanitizeOperatorHtml(html)]));
    return this.repository.set(JSON.stringify(clean), this.now());
  }

  clear(): Promise<void> {
    return this.repository.clear();
  }
}

export function createNoticeService(db: Executor, now: () => number): NoticeService {
  return new NoticeService(new NoticeRepository(db), now);
}
