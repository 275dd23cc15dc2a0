import { describe, expect, it } from 'vitest';
import { displayPrice } from './display-price';

const both = { pkgId: 1, pkgType: '30 days', prices: { USD: { price: 6, real: 5 }, BRL: { price: 30, real: 25 } } };
const onlyMxn = { pkgId: 2, pkgType: '30 days', prices: { MXN: { price: 100, real: 90 }, COP: { price: 1, real: 1 } } };

describe('the currency a plan card shows', () => {
  it('is reais in Portuguese and dollars otherwise', () => {
    expect(displayPrice(both, 'por')?.currency).toBe('BRL');
    expect(displayPrice(both, 'en')?.currency).toBe('USD');
    expect(displayPrice(both, 'zh')?.currency).toBe('USD');
  });

  it("falls back to the package's first currency, and to nothing without prices", () => {
    expect(displayPrice(onlyMxn, 'por')).toEqual({ currency: 'MXN', price: { price: 100, real: 90 } });
    expect(displayPrice({ ...both, prices: {} }, 'en')).toBeUndefined();
  });
});
