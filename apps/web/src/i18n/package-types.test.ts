import { describe, expect, it } from 'vitest';
import { packageTypeText } from './package-types';

describe('packageTypeText', () => {
  it.each([
    ['30 days', 'en', '30 days'],
    ['30 days', 'pt-BR', '30 dias'],
    ['30 days', 'zh-Hans', '30 天'],
    ['1 day', 'pt-BR', '1 dia'],
    ['100 GB / 90 days', 'pt-BR', '100 GB / 90 dias'],
    ['100 GB / 90 days', 'zh-Hans', '100 GB / 90 天'],
    ['1.5 TB / 365 days', 'en', '1.5 TB / 365 days'],
  ] as const)('shows "%s" in %s as "%s"', (label, language, text) => {
    expect(packageTypeText(label, language)).toBe(text);
  });

  it("leaves an operator's own words as written", () => {
    for (const label of ['1 month', '100 GB', 'Promo 30 days', '30 dias', '']) {
      expect(packageTypeText(label, 'zh-Hans')).toBe(label);
    }
  });
});
