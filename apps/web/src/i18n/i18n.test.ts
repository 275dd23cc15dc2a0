import { LANGUAGES } from '@mutenet/contract';
import { describe, expect, it, vi } from 'vitest';
import { getSessionValue, SESSION_KEYS, setSessionValue } from '../lib/storage';
import { currentRequestLanguage, i18n, parseLanguage, setLanguage } from './i18n';
import { en } from './resources/en';
import { zh } from './resources/zh';

function keysOf(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, inner]) =>
    typeof inner === 'object' && inner !== null ? keysOf(inner, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('i18n', () => {
  it('loads the strings of a language only when it is shown', async () => {
    // A module of its own, as a page load makes it: other suites in this worker have shown other languages.
    vi.resetModules();
    const fresh = await import('./i18n');
    await fresh.startI18n();
    expect(fresh.i18n.hasResourceBundle('por', 'translation')).toBe(true);
    expect(fresh.i18n.hasResourceBundle('en', 'translation')).toBe(false);
    expect(fresh.i18n.hasResourceBundle('zh', 'translation')).toBe(false);
    await fresh.setLanguage('zh');
    expect(fresh.i18n.hasResourceBundle('zh', 'translation')).toBe(true);
    expect(fresh.i18n.hasResourceBundle('en', 'translation')).toBe(false);
    expect(fresh.i18n.t('auth.login.title')).toBe(zh.auth.login.title);
  });

  it('starts in the language of the address, over the one this tab showed last, loading only that one', async () => {
    setSessionValue(SESSION_KEYS.language, 'zh');
    vi.resetModules();
    const fresh = await import('./i18n');
    await fresh.startI18n('en');
    expect(fresh.currentRequestLanguage()).toBe('en');
    expect(getSessionValue(SESSION_KEYS.language)).toBe('en');
    expect(fresh.i18n.hasResourceBundle('zh', 'translation')).toBe(false);
    expect(fresh.i18n.hasResourceBundle('por', 'translation')).toBe(false);
  });

  it('reads stored and wire language codes', () => {
    expect(parseLanguage('por')).toBe('por');
    expect(parseLanguage('pt-BR')).toBe('por');
    expect(parseLanguage('zh-hans')).toBe('zh');
    expect(parseLanguage('en')).toBe('en');
    expect(parseLanguage('fr')).toBeUndefined();
    expect(parseLanguage(null)).toBeUndefined();
  });

  it('keeps the language in session storage and on <html lang>', async () => {
    await setLanguage('zh');
    expect(getSessionValue(SESSION_KEYS.language)).toBe('zh');
    expect(document.documentElement.lang).toBe('zh-Hans');
    expect(currentRequestLanguage()).toBe('zh-Hans');
    await setLanguage('por');
    expect(document.documentElement.lang).toBe('pt-BR');
  });

  it('has every UI string in every language', async () => {
    await i18n.loadLanguages([...LANGUAGES]);
    const keys = keysOf(en);
    for (const language of LANGUAGES) {
      for (const key of keys) {
        const text = i18n.getResource(language, 'translation', key);
        expect(typeof text === 'string' && text.length > 0, `${language}: ${key}`).toBe(true);
      }
    }
  });
});
