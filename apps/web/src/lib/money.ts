import { CURRENCY_SYMBOLS, type RequestLanguage } from '@mutenet/contract';
import { formatNumber } from './numbers';

/** The symbol of a currency ($, R$…); an unknown currency is shown by its code. */
export function currencySymbol(currency: string): string {
  return CURRENCY_SYMBOLS[currency] ?? `${currency} `;
}

/** The decimals that show every one of these amounts whole: none when all are whole, else two. */
export function moneyDecimals(...amounts: number[]): 0 | 2 {
  return amounts.every(Number.isInteger) ? 0 : 2;
}

/**
 * An amount in major units, in the language's number format: a whole amount without decimals, others with two.
 * Amounts shown side by side (a price beside its old price) pass their common `decimals`, `$6.00` beside `$4.99`.
 */
export function formatAmount(amount: number, language: RequestLanguage, decimals = moneyDecimals(amount)): string {
  return formatNumber(amount, language, { minimumFractionDigits: decimals, maximumFractionDigits: 2 });
}

/** An amount with its currency's symbol: `$4.99`, `R$24,90`. */
export function formatMoney(
  amount: number,
  currency: string,
  language: RequestLanguage,
  decimals = moneyDecimals(amount),
): string {
  return `${currencySymbol(currency)}${formatAmount(amount, language, decimals)}`;
}
