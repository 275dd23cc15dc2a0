import type { RequestLanguage } from '@mutenet/contract';
import { currencySymbol } from '../../../lib/money';

const DECIMAL_FORMATS = new Map<RequestLanguage, Intl.NumberFormat>();

/**
 * An exact decimal amount from the server ("1234.50") in the language's number format with its currency's symbol
 * ("R$1.234,50"): Intl formats the decimal string as written, so no digit goes through floating point.
 */
export function formatRevenue(amount: string, currency: string, language: RequestLanguage): string {
  let format = DECIMAL_FORMATS.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 20 });
    DECIMAL_FORMATS.set(language, format);
  }
  return `${currencySymbol(currency)}${format.format(amount as Intl.StringNumericLiteral)}`;
}
