import { CURRENCY_SYMBOLS, type RequestLanguage } from '@mutenet/contract';

/** The symbol of a currency ($, R$…); an unknown currency is shown by its code. */
export function currencySymbol(currency: string): string {
  return CURRENCY_SYMBOLS[currency] ?? `${currency} `;
}

/** Number formats by language and minimum decimals: building one costs far more than using it. */
const FORMATS = new Map<string, Intl.NumberFormat>();

function numberFormat(language: RequestLanguage, digits: number): Intl.NumberFormat {
  const key = `${language}/${digits}`;
  let format = FORMATS.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: 2 });
    FORMATS.set(key, format);
  }
  return format;
}

/** An amount in major units, in the language's number format: whole amounts without decimals, others with two. */
export function formatAmount(amount: number, language: RequestLanguage): string {
  return numberFormat(language, Number.isInteger(amount) ? 0 : 2).format(amount);
}

/** An amount with its currency's symbol: `$4.99`, `R$24,90`. */
export function formatMoney(amount: number, currency: string, language: RequestLanguage): string {
  return `${currencySymbol(currency)}${formatAmount(amount, language)}`;
}
