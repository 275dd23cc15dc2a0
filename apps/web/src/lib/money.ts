import { CURRENCY_SYMBOLS, type RequestLanguage } from '@mutenet/contract';
import { formatNumber } from './numbers';

/** The symbol of a currency ($, R$…); an unknown currency is shown by its code. */
export function currencySymbol(currency: string): string {
  return CURRENCY_SYMBOLS[currency] ?? `${currency} `;
}

/** An amount in major units, in the language's number format: whole amounts without decimals, others with two. */
export function formatAmount(amount: number, language: RequestLanguage): string {
  return formatNumber(amount, language, {
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
  });
}

/** An amount with its currency's symbol: `$4.99`, `R$24,90`. */
export function formatMoney(amount: number, currency: string, language: RequestLanguage): string {
  return `${currencySymbol(currency)}${formatAmount(amount, language)}`;
}
