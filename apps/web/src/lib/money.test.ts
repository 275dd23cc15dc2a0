import { describe, expect, it } from 'vitest';
import { currencySymbol, formatAmount, formatMoney, moneyDecimals } from './money';

describe('money', () => {
  it('uses the symbol table of the contract, the code for an unknown currency', () => {
    expect(currencySymbol('USD')).toBe('$');
    expect(currencySymbol('BRL')).toBe('R$');
    expect(currencySymbol('PEN')).toBe('S/');
    expect(currencySymbol('EUR')).toBe('EUR ');
  });

  it('formats in the language, whole amounts without decimals', () => {
    expect(formatMoney(4.99, 'USD', 'en')).toBe('$4.99');
    expect(formatMoney(24.9, 'BRL', 'pt-BR')).toBe('R$24,90');
    expect(formatMoney(6, 'USD', 'en')).toBe('$6');
    expect(formatAmount(1599.5, 'en')).toBe('1,599.50');
  });

  it('gives amounts shown together the decimals of the one that has them', () => {
    expect(moneyDecimals(4.99, 6)).toBe(2);
    expect(moneyDecimals(5, 6)).toBe(0);
    expect(formatMoney(6, 'USD', 'en', moneyDecimals(4.99, 6))).toBe('$6.00');
    expect(formatMoney(30, 'BRL', 'pt-BR', moneyDecimals(24.9, 30))).toBe('R$30,00');
    expect(formatAmount(1599, 'zh-Hans', 2)).toBe('1,599.00');
  });

  it('shows every decimal of a currency with more than two, never rounding them away', () => {
    expect(formatMoney(0.1234, 'KWD', 'en')).toBe('KWD 0.1234');
    expect(formatMoney(12.5, 'KWD', 'pt-BR', moneyDecimals(12.5, 0.125))).toBe('KWD 12,500');
  });
});
