import { describe, expect, it } from 'vitest';
import { formatRevenue } from './format';

describe('formatRevenue', () => {
  it('writes the exact decimal in each language, beyond what a float holds', () => {
    expect(formatRevenue('1234.50', 'USD', 'en')).toBe('$1,234.50');
    expect(formatRevenue('1234.50', 'BRL', 'pt-BR')).toBe('R$1.234,50');
    expect(formatRevenue('0.10', 'CNY', 'zh-Hans')).toMatch(/0\.10$/);
    expect(formatRevenue('90071992547409931.07', 'USD', 'en')).toBe('$90,071,992,547,409,931.07');
  });
});
