import { CURRENCY_SYMBOLS, type RequestLanguage } from '@mutenet/contract';

/** The symbol of a currency ($, R$…); an unknown currency is shown by its code. */
export function currencySymbol(currency: string): string {
  return CURRENCY_SYMBOLS[currency] ?? `${currency} `;
}

/** An amount in major units, in the language's number format: whole amounts without decimals, others with two. */
export function formatAmount(amount: number, language: RequestLanguage): string {
  const digits = Number.isInteger(amount) ? 0 : 2;
  return new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: 2 }).format(amount);
}

/** An amount with its currency's symbol: `$4.99`, `R$24,90`. */
export function formatMoney(amount: number, currency: string, language: RequestLanguage): string {
  return `${currencySymbol(currency)}${formatAmount(amount, language)}`;
}
