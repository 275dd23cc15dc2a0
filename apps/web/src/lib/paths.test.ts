import { describe, expect, it } from 'vitest';
import { isPublicPath } from './paths';

describe('isPublicPath', () => {
  it.each(['/login', '/register', '/', '/showDocx', '/forgetPasswords', '/login/'])('%s is public', (path) => {
    expect(isPublicPath(path)).toBe(true);
  });

  it.each(['/home', '/pannel', '/person', '/orders/mobile/en', '/loginx', '/register/extra'])(
    '%s needs a token',
    (path) => {
      expect(isPublicPath(path)).toBe(false);
    },
  );
});
