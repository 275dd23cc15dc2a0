import type { Language } from '@mutenet/contract';

const LOCALE: Record<Language, string> = { en: 'en', por: 'pt-BR', zh: 'zh-CN' };

/** A date and time in the screen's language, in the browser's time zone. */
export function dateTimeFormat(language: Language) {
  return new Intl.DateTimeFormat(LOCALE[language], { dateStyle: 'medium', timeStyle: 'short' });
}
