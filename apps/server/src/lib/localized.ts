import { REQUEST_LANGUAGES, type RequestLanguage } from '@mutenet/contract';

export type Localized = Record<RequestLanguage, string>;

/** Operator text in each language, kept as JSON; a missing language falls back to English, then to any. */
export function pickLanguage(json: string, language: RequestLanguage): string {
  const texts = JSON.parse(json) as Partial<Localized>;
  return texts[language] || texts.en || Object.values(texts).find(Boolean) || '';
}

/** The same text for every language, or the given ones over it. */
export function localized(fallback: string, overrides: Partial<Localized> = {}): Localized {
  const result = Object.fromEntries(REQUEST_LANGUAGES.map((lang) => [lang, fallback])) as Localized;
  for (const [lang, text] of Object.entries(overrides)) if (text) result[lang as RequestLanguage] = text;
  return result;
}
