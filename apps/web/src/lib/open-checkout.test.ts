import { describe, expect, it, vi } from 'vitest';
import { recordCookieWrites, stubWindowOpen } from '../testing/browser-stubs';
import { CHECKOUT_COOKIE_MAX_AGE_SECONDS, checkoutCookie, checkoutUrl, openCheckout } from './open-checkout';
import { setToken } from './storage';

describe('checkout helper', () => {
  it('builds the checkout path with the request language', () => {
    expect(checkoutUrl('202611211525000000000001', 'en')).toBe('/shopDetails/en/202611211525000000000001');
    expect(checkoutUrl('1', 'por')).toBe('/shopDetails/pt-BR/1');
    expect(checkoutUrl('1', 'zh')).toBe('/shopDetails/zh-Hans/1');
  });

  it('writes a short-lived, strict, path-bound cookie, Secure under HTTPS', () => {
    expect(CHECKOUT_COOKIE_MAX_AGE_SECONDS).toBe(1800);
    expect(checkoutCookie('tok', false)).toBe('token=tok; path=/shopDetails; max-age=1800; SameSite=Strict');
    expect(checkoutCookie('tok', true)).toBe('token=tok; path=/shopDetails; max-age=1800; SameSite=Strict; Secure');
    expect(checkoutCookie('a;b=c', false)).toMatch(/^token=a%3Bb%3Dc; /);
  });

  it('sets the cookie from the stored token and opens the page in a new tab', () => {
    setToken('tok-1');
    const writes = recordCookieWrites();
    const open = stubWindowOpen();
    expect(openCheckout('202611211525000000000001', 'por')).toBe(true);
    expect(writes).toEqual(['token=tok-1; path=/shopDetails; max-age=1800; SameSite=Strict']);
    expect(open).toHaveBeenCalledWith('/shopDetails/pt-BR/202611211525000000000001', '_blank');
  });

  it('reports a blocked tab', () => {
    setToken('tok-1');
    vi.spyOn(window, 'open').mockReturnValue(null);
    expect(openCheckout('1', 'en')).toBe(false);
  });
});
