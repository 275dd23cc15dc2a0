import { CURRENCY_SYMBOLS, type RequestLanguage } from '@mutenet/contract';
import { formatNumber } from './numbers';

/** The symbol of a currency ($, R$…); an unknown currency is shown by its code. */
export function currencySymbol(currency: string): string {
  return CURRENCY_SYMBOLS[currency] ?? `${currency} `;
}

/** The decimals written after the point of an amount in major units (12.5 has 1, 0.1234 has 4). */
function decimalsOf(amount: number): number {
  return String(amount).split('.')[1]?.length ?? 0;
}

/**
 * The decimals that show every one of these amounts whole: none when all are whole, else two, or more for a
 * currency with more (up to four: 0.1234 is shown so, not rounded).
 */
export function moneyDecimals(...amounts: number[]): number {
  return amounts.every(Number.isInteger) ? 0 : Math.max(2, ...amounts.map(decimalsOf));
}

/**
 * An amount in major units, in the language's number format: a whole amount without decimals, others with two (or
 * as many as it has, past two). Amounts shown side by side (a price beside its old price) pass their common
 * `decimals`, `$6.00` beside `$4.99`.
 */
export function formatAmount(amount: number, language: RequestLanguage, decimals = moneyDecimals(amount)): string {
  return formatNumber(amount, language, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: Math.max(2, decimals),
  });
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
