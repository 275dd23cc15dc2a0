import { describe, expect, it } from 'vitest';
import { jsonPrintedBy } from './module-script.js';

// `npm run lighthouse` is not part of `npm test`, but borrows the tests' server and sign-up: they must load outside
// vitest's runner, as the script loads them (a helper that loaded vitest twice once broke it unnoticed).
describe('what npm run lighthouse borrows from the tests', () => {
  it('loads with tsx outside vitest, every name the script takes', { timeout: 60_000 }, async () => {
    const load = `
      const { tsImport } = await import('tsx/esm/api');
      const borrowed = await tsImport('./scripts/lighthouse-support.ts', import.meta.url);
      console.log(JSON.stringify(Object.keys(borrowed).sort()));`;
    expect(await jsonPrintedBy(load)).toEqual([
      'CAPTCHA_TEST_CODE',
      'CHROMIUM_FLAGS',
      'CHROMIUM_PATH',
      'httpClient',
      'signUp',
      'startServer',
    ]);
  });
});
