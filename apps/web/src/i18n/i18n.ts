import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGES,
  type Language,
  MESSAGES,
  type MessageKey,
  REQUEST_LANGUAGE,
  type RequestLanguage,
} from '@mutenet/contract';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getSessionValue, SESSION_KEYS, setSessionValue } from '../lib/storage';
import { en } from './resources/en';
import { por } from './resources/por';
import { zh } from './resources/zh';

export const i18n: I18n = i18next.createInstance();

const BY_REQUEST_LANGUAGE = new Map<string, Language>(
  LANGUAGES.map((language) => [REQUEST_LANGUAGE[language].toLowerCase(), language]),
);

/** Reads a language as the panel stores it (en, por, zh) or as the wire names it (en, pt-BR, zh-Hans). */
export function parseLanguage(value: string | null | undefined): Language | undefined {
  if (!value) return undefined;
  if (isLanguage(value)) return value;
  return BY_REQUEST_LANGUAGE.get(value.toLowerCase());
}

export function currentLanguage(): Language {
  return parseLanguage(i18n.language) ?? DEFAULT_LANGUAGE;
}

/** What `Accept-Language` carries for the language on screen. */
export function currentRequestLanguage(): RequestLanguage {
  return REQUEST_LANGUAGE[currentLanguage()];
}

/** A contract message in the language on screen. */
export function messageText(key: MessageKey): string {
  return MESSAGES[key][currentRequestLanguage()];
}

export async function setLanguage(language: Language): Promise<void> {
  setSessionValue(SESSION_KEYS.language, language);
  if (i18n.language !== language) await i18n.changeLanguage(language);
}

function initialLanguage(): Language {
  const fromQuery = parseLanguage(new URLSearchParams(globalThis.location?.search ?? '').get('lang'));
  return fromQuery ?? parseLanguage(getSessionValue(SESSION_KEYS.language)) ?? DEFAULT_LANGUAGE;
}

function reflectLanguage(language: string): void {
  const parsed = parseLanguage(language) ?? DEFAULT_LANGUAGE;
  document.documentElement.lang = REQUEST_LANGUAGE[parsed];
}

i18n.on('languageChanged', reflectLanguage);

const language = initialLanguage();
setSessionValue(SESSION_KEYS.language, language);
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, por: { translation: por }, zh: { translation: zh } },
  lng: language,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  initAsync: false,
});
