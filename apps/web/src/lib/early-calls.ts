/**
 * The first calls of a signed-in screen, sent by its page as the page starts rather than once the app's scripts have
 * arrived and run: on a slow network those take seconds, and the screen's data was asked for only after them (on the
 * shop, its catalogue was the last thing its Largest Contentful Paint waited for). The build writes `sendEarlyCalls`
 * into each such page (`screens/{segment}.html`) as an inline script, which the server's policy allows by its hash;
 * the api client takes each answer once, for the same call with the same session and language. A call it does not
 * match goes to the network as before, so a wrong guess here costs a request, never a wrong answer.
 */

import { DEFAULT_LANGUAGE, LANGUAGES, REQUEST_LANGUAGE } from '@mutenet/contract';
import { SESSION_KEYS, TOKEN_KEY } from './storage.ts'; // with its extension: vite.config.ts imports this file

/** A call a screen makes first: no query, no body. */
export type EarlyCall = { readonly method: string; readonly path: string };

/** What the page's script needs, written into it by the build. */
export type EarlyCallsSetup = {
  readonly calls: readonly EarlyCall[];
  /** Where the app keeps the session token (local storage) and the language (session storage). */
  readonly tokenKey: string;
  readonly languageKey: string;
  /** Each language as the app stores it and as `Accept-Language` carries it. */
  readonly languages: readonly (readonly [stored: string, request: string])[];
  /** `Accept-Language` when neither the URL's `lang` nor the tab names a language. */
  readonly defaultLanguage: string;
};

type EarlyAnswer = { token: string; language: string; sentAt: number; response: Promise<Response> };

/** The global the page's script leaves its answers in: a script written into a page can share nothing else. */
export const EARLY_ANSWERS_GLOBAL = 'mutenetEarlyCalls';

/** An answer older than this is not taken: the screen asks afresh (a tab that was hidden as it opened, say). */
export const EARLY_ANSWER_MAX_AGE_MS = 10_000;

/**
 * Sends the calls with the session and language the app will send them with (the language read as `i18n.ts` reads
 * it: the URL's `lang`, then the tab's, in either form). Written into a page as its source, so it uses nothing from
 * outside itself. Nothing is sent without a session: the signed-in screens then go to the login screen.
 */
export function sendEarlyCalls(setup: EarlyCallsSetup, store: string): void {
  try {
    const token = localStorage.getItem(setup.tokenKey);
    if (!token) return;
    const requestLanguage = (value: string | null) => {
      const wanted = value?.toLowerCase();
      return setup.languages.find(([stored, request]) => wanted === stored || wanted === request.toLowerCase())?.[1];
    };
    const language =
      requestLanguage(new URLSearchParams(location.search).get('lang')) ??
      requestLanguage(sessionStorage.getItem(setup.languageKey)) ??
      setup.defaultLanguage;
    const answers: Record<string, EarlyAnswer> = {};
    for (const { method, path } of setup.calls) {
      const response = fetch(path, { method, headers: { 'Accept-Language': language, Authorization: token } });
      // A failure is the taker's to report; one nobody takes is not an unhandled rejection.
      response.catch(() => {});
      // Keyed as `takeEarlyAnswer` looks it up.
      answers[`${method} ${path}`] = { token, language, sentAt: Date.now(), response };
    }
    (globalThis as Record<string, unknown>)[store] = answers;
  } catch {
    // Storage switched off (private modes, web views): the app sends the calls itself.
  }
}

/**
 * The answer to a call the page sent early, once: only for the same call, session and language, and while fresh. A
 * call asked for and not matched is dropped too, so that a later call never takes an answer meant for an earlier one.
 */
export function takeEarlyAnswer(
  method: string,
  path: string,
  token: string | null,
  language: string,
): Promise<Response> | undefined {
  const answers = (globalThis as Record<string, unknown>)[EARLY_ANSWERS_GLOBAL] as
    | Record<string, EarlyAnswer>
    | undefined;
  const key = `${method} ${path}`;
  const answer = answers?.[key];
  if (!answer || !answers) return undefined;
  delete answers[key];
  const matches = answer.token === token && answer.language === language;
  return matches && Date.now() - answer.sentAt <= EARLY_ANSWER_MAX_AGE_MS ? answer.response : undefined;
}

/** What the page's script of these calls is given: where the app keeps the session and language, and their names. */
export function earlyCallsSetup(calls: readonly EarlyCall[]): EarlyCallsSetup {
  return {
    calls: calls.map(({ method, path }) => ({ method, path })),
    tokenKey: TOKEN_KEY,
    languageKey: SESSION_KEYS.language,
    languages: LANGUAGES.map((language) => [language, REQUEST_LANGUAGE[language]] as const),
    defaultLanguage: REQUEST_LANGUAGE[DEFAULT_LANGUAGE],
  };
}

/** The inline script of a page whose screen makes these calls first: `sendEarlyCalls`' source, called with them. */
export function earlyCallsScript(calls: readonly EarlyCall[]): string {
  // Markup cannot end the script early from inside the JSON: every `<` is escaped.
  const json = JSON.stringify(earlyCallsSetup(calls)).replaceAll('<', '\\u003c');
  return `(${sendEarlyCalls.toString()})(${json}, ${JSON.stringify(EARLY_ANSWERS_GLOBAL)});`;
}
