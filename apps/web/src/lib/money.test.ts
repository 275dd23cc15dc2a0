import { describe, expect, it } from 'vitest';
import { currencySymbol, formatAmount, formatMoney } from './money';

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
});
