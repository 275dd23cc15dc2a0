import type { Language, Package, Price } from '@mutenet/contract';

/** The shop shows reais in Portuguese and dollars otherwise (spec section 2). */
export function preferredCurrency(language: Language): string {
  return language === 'por' ? 'BRL' : 'USD';
}

/** The currency a card shows a package in: the language's one, else the first the package is priced in. */
export function displayPrice(pkg: Package, language: Language): { currency: string; price: Price } | undefined {
  const preferred = preferredCurrency(language);
  const currency = pkg.prices[preferred] ? preferred : Object.keys(pkg.prices)[0];
  const price = currency === undefined ? undefined : pkg.prices[currency];
  return currency !== undefined && price ? { currency, price } : undefined;
}
