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
import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getSessionValue, SESSION_KEYS, setSessionValue } from '../lib/storage';
import type { Resources } from './resources/en';

export const i18n: I18n = i18next.createInstance();

/** Each language's strings are a chunk of their own: the first screen loads only the language it shows. */
const RESOURCES: Record<Language, () => Promise<Resources>> = {
  en: () => import('./resources/en').then((module) => module.en),
  por: () => import('./resources/por').then((module) => module.por),
  zh: () => import('./resources/zh').then((module) => module.zh),
};

const loadResources: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const parsed = parseLanguage(language);
    if (!parsed) return callback(new Error(`no strings for ${language}`), false);
    RESOURCES[parsed]().then(
      (resources) => callback(null, resources),
      (error: Error) => callback(error, false),
    );
  },
};

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

function reflectLanguage(language: string): void {
  const parsed = parseLanguage(language) ?? DEFAULT_LANGUAGE;
  document.documentElement.lang = REQUEST_LANGUAGE[parsed];
}

i18n.on('languageChanged', reflectLanguage);

let started: Promise<unknown> | undefined;

/**
 * Starts the translations in the language the address asks for, else the one this tab showed last, else the default,
 * and settles once its strings have arrived (a change of language loads the new one before it switches). Only that
 * language is loaded: every language has every key (`Resources`), so no fallback is loaded beside it. Called again, it
 * switches to the language given.
 */
export function startI18n(urlLanguage?: Language): Promise<unknown> {
  if (started) return urlLanguage ? started.then(() => setLanguage(urlLanguage)) : started;
  const language = urlLanguage ?? parseLanguage(getSessionValue(SESSION_KEYS.language)) ?? DEFAULT_LANGUAGE;
  setSessionValue(SESSION_KEYS.language, language);
  started = i18n
    .use(loadResources)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: false,
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      interpolation: { escapeValue: false },
    });
  return started;
}
