import type { Language } from '@mutenet/contract';

/** Each language named in itself, the same whatever language the screen is in. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  por: 'Português',
  zh: '中文',
};
