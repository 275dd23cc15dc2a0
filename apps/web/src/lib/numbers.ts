import type { RequestLanguage } from '@mutenet/contract';

export type FractionDigits = { minimumFractionDigits?: number; maximumFractionDigits: number };

/** What each language writes between groups of three digits and before the decimals. */
const SEPARATORS: Record<RequestLanguage, { group: string; decimal: string }> = {
  en: { group: ',', decimal: '.' },
  'pt-BR': { group: '.', decimal: ',' },
  'zh-Hans': { group: ',', decimal: '.' },
};

/** Kept by language and digits, for the numbers written below by Intl itself. */
const INTL_FORMATS = new Map<string, Intl.NumberFormat>();

/**
 * A number as `new Intl.NumberFormat(language, digits).format(value)` writes it (decimals rounded half away from
 * zero, groups of three), written here for the panel's three languages: the first number format a page makes costs
 * the browser 30–100 ms on a slow machine (ICU setting up its number formatting), which was the longest task on the
 * main thread as the shop and the dashboard first showed. Held to Intl by property tests; a number JavaScript writes
 * with an exponent (1e21 and up, or below 1e-6), or one not finite, is left to Intl.
 */
export function formatNumber(value: number, language: RequestLanguage, digits: FractionDigits): string {
  const { minimumFractionDigits = 0, maximumFractionDigits } = digits;
  const plain = String(Math.abs(value));
  if (!Number.isFinite(value) || plain.includes('e')) return intlFormat(value, language, digits);
  const point = plain.indexOf('.');
  let whole = point === -1 ? plain : plain.slice(0, point);
  let fraction = point === -1 ? '' : plain.slice(point + 1);
  if (fraction.length > maximumFractionDigits) {
    const roundsUp = fraction.charCodeAt(maximumFractionDigits) >= 53; // '5'
    fraction = fraction.slice(0, maximumFractionDigits);
    if (roundsUp) [whole, fraction] = addOneInLastPlace(whole, fraction);
  }
  let end = fraction.length;
  while (end > minimumFractionDigits && fraction.charCodeAt(end - 1) === 48) end--; // '0'
  fraction = fraction.slice(0, end).padEnd(minimumFractionDigits, '0');
  const { group, decimal } = SEPARATORS[language];
  const negative = value < 0 || Object.is(value, -0);
  return `${negative ? '-' : ''}${grouped(whole, group)}${fraction ? decimal + fraction : ''}`;
}

/** `whole.fraction` plus one in the fraction's last place (or in the units, with no fraction), as digit strings. */
function addOneInLastPlace(whole: string, fraction: string): [string, string] {
  const digits = (whole + fraction).split('');
  let index = digits.length - 1;
  while (index >= 0 && digits[index] === '9') digits[index--] = '0';
  if (index >= 0) digits[index] = String(Number(digits[index]) + 1);
  else digits.unshift('1');
  const split = digits.length - fraction.length;
  return [digits.slice(0, split).join(''), digits.slice(split).join('')];
}

function grouped(whole: string, separator: string): string {
  let text = whole.slice(0, whole.length % 3 || 3);
  for (let index = text.length; index < whole.length; index += 3) text += separator + whole.slice(index, index + 3);
  return text;
}

function intlFormat(value: number, language: RequestLanguage, digits: FractionDigits): string {
  const key = `${language}/${digits.minimumFractionDigits ?? 0}/${digits.maximumFractionDigits}`;
  let format = INTL_FORMATS.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, digits);
    INTL_FORMATS.set(key, format);
  }
  return format.format(value);
}
