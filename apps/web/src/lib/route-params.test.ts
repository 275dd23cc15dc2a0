import { describe, expect, it } from 'vitest';
import { urlOptions } from './route-params';

describe('urlOptions', () => {
  it('reads the mobile flag and the language from the query', () => {
    expect(urlOptions('?from=mobile&lang=en', {})).toEqual({ mobile: true, language: 'en' });
    expect(urlOptions('?lang=pt-BR', {})).toEqual({ mobile: false, language: 'por' });
    expect(urlOptions('?lang=zh-Hans', {})).toEqual({ mobile: false, language: 'zh' });
  });

  it('reads them from the path segments', () => {
    expect(urlOptions('', { from: 'mobile', lang: 'por' })).toEqual({ mobile: true, language: 'por' });
    expect(urlOptions('', { from: 'pc', lang: 'zh' })).toEqual({ mobile: false, language: 'zh' });
  });

  it('takes a language in the place of `from` as the language', () => {
    expect(urlOptions('', { from: 'en' })).toEqual({ mobile: false, language: 'en' });
  });

  it('ignores what it does not know', () => {
    expect(urlOptions('?lang=fr', {})).toEqual({ mobile: false, language: undefined });
  });
});
