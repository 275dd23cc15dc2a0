import { describe, expect, it } from 'vitest';
import { parseCheckoutPath, readCheckoutToken } from './checkout-location';

describe('checkout location', () => {
  it.each([
    ['/shopDetails/en/202611211525000000000001', 'en', '202611211525000000000001'],
    ['/shopDetails/pt-BR/1', 'pt-BR', '1'],
    ['/shopDetails/zh-hans/1/', 'zh-Hans', '1'],
    ['/shopDetails/fr/1', 'en', '1'],
    ['/shopDetails/en', 'en', null],
    ['/shopDetails/en/1/extra', 'en', null],
    ['/elsewhere/en/1', 'en', null],
    ['/shopDetails/en/%E0%A4%A', 'en', null],
  ])('reads %s', (pathname, language, orderNo) => {
    expect(parseCheckoutPath(pathname)).toEqual({ language, orderNo });
  });

  it('reads the token cookie, whatever else is set', () => {
    expect(readCheckoutToken('a=1; token=abc%3D; b=2')).toBe('abc=');
    expect(readCheckoutToken('token=x=y')).toBe('x=y');
    expect(readCheckoutToken('tokenish=1')).toBeNull();
    expect(readCheckoutToken('token=')).toBeNull();
    expect(readCheckoutToken('')).toBeNull();
  });
});
