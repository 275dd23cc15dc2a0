/**
 * Everything the panel keeps in the browser. The token survives the tab (local storage); the rest
 * lives as long as the tab does (session storage).
 */
export const TOKEN_KEY = 'token';

export const SESSION_KEYS = {
  email: 'email',
  language: 'language',
  activeName: 'activeName',
  activePath: 'activePath',
  /** The dashboard notice the customer closed in this tab (a fingerprint of its text). */
  noticeDismissed: 'noticeDismissed',
} as const;
export type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS];

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    // Storage can be switched off (private modes, web views): behave as if it were empty.
    return fallback;
  }
}

export function getToken(): string | null {
  return safely(() => localStorage.getItem(TOKEN_KEY) || null, null);
}

export function setToken(token: string): void {
  safely(() => localStorage.setItem(TOKEN_KEY, token), undefined);
}

export function hasToken(): boolean {
  return getToken() !== null;
}

export function getSessionValue(key: SessionKey): string | null {
  return safely(() => sessionStorage.getItem(key), null);
}

export function setSessionValue(key: SessionKey, value: string): void {
  safely(() => sessionStorage.setItem(key, value), undefined);
}

/**
 * Signs the browser out: clears local and session storage. The language is what the screen is
 * showing, so it is written back and the login screen keeps speaking it.
 */
export function clearStorage(): void {
  const language = getSessionValue(SESSION_KEYS.language);
  safely(() => localStorage.clear(), undefined);
  safely(() => sessionStorage.clear(), undefined);
  if (language) setSessionValue(SESSION_KEYS.language, language);
}
