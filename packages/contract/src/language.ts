/** The panel's own language codes, as kept in session storage. */
export const LANGUAGES = ['en', 'por', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

/** What each language is called on the wire (`Accept-Language`) and in the checkout path. */
export const REQUEST_LANGUAGES = ['en', 'pt-BR', 'zh-Hans'] as const;
export type RequestLanguage = (typeof REQUEST_LANGUAGES)[number];

export const REQUEST_LANGUAGE: Record<Language, RequestLanguage> = {
  en: 'en',
  por: 'pt-BR',
  zh: 'zh-Hans',
};

export const DEFAULT_LANGUAGE: Language = 'por';

/** Login, register and the header menus offer these only (Chinese exists but is not offered there). */
export const MENU_LANGUAGES: readonly Language[] = ['en', 'por'];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Picks the first supported language of an `Accept-Language` header; the default when none matches. */
export function requestLanguageOf(header: string | undefined): RequestLanguage {
  if (header) {
    for (const part of header.split(',')) {
      const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
      if (tag === 'en' || tag.startsWith('en-')) return 'en';
      if (tag === 'pt' || tag.startsWith('pt-') || tag === 'por') return 'pt-BR';
      if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-Hans';
    }
  }
  return REQUEST_LANGUAGE[DEFAULT_LANGUAGE];
}
