import { isLanguage, LANGUAGES, type Language, REQUEST_LANGUAGE, type RequestLanguage } from '@mutenet/contract';
import i18next, { type i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** One area's strings in the three languages, the same keys in each (values may hold `{{name}}` placeholders). */
export type AreaStrings<S extends Record<string, string>> = { area: string } & Record<Language, S>;

/** Declares an area's strings; `por` and `zh` must have every key of `en`. */
export function defineStrings<const S extends Record<string, string>>(
  area: string,
  strings: { en: S } & Record<Exclude<Language, 'en'>, Record<keyof S, string>>,
): AreaStrings<S> {
  return { area, ...strings } as AreaStrings<S>;
}

/** The console's own translations, apart from the customer panel's (a separate bundle, separate strings). */
export const consoleI18n: I18n = i18next.createInstance();

const STORAGE_KEY = 'mutenet-console-language';

function storedLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  return navigator.language.startsWith('pt') ? 'por' : navigator.language.startsWith('zh') ? 'zh' : 'en';
}

consoleI18n.on('languageChanged', (language) => {
  if (isLanguage(language)) document.documentElement.lang = REQUEST_LANGUAGE[language];
});

/** Starts the translations with every area's strings (each area's are a namespace of their own). */
export async function startConsoleI18n(
  areas: readonly AreaStrings<Record<string, string>>[],
  language = storedLanguage(),
): Promise<void> {
  if (consoleI18n.isInitialized) {
    await consoleI18n.changeLanguage(language);
    return;
  }
  const resources = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, Object.fromEntries(areas.map((strings) => [strings.area, strings[lang]]))]),
  );
  await consoleI18n.init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    resources,
    interpolation: { escapeValue: false },
  });
}

export function consoleLanguage(): Language {
  return isLanguage(consoleI18n.language) ? consoleI18n.language : 'en';
}

/** What `Accept-Language` carries, so that the server's messages come in the language on screen. */
export function consoleRequestLanguage(): RequestLanguage {
  return REQUEST_LANGUAGE[consoleLanguage()];
}

export async function setConsoleLanguage(language: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEY, language);
  await consoleI18n.changeLanguage(language);
}

/** An area's strings in the language on screen; re-renders when the language changes. */
export function useText<S extends Record<string, string>>(strings: AreaStrings<S>) {
  const { t, i18n } = useTranslation(strings.area as never, { i18n: consoleI18n });
  const text = useCallback(
    (key: keyof S & string, values?: Record<string, string | number>) =>
      (t as unknown as (key: string, values?: object) => string)(key, values),
    [t],
  );
  return { t: text, language: isLanguage(i18n.language) ? i18n.language : ('en' as Language) };
}
