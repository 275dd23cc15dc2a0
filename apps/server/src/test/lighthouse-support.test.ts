import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

// `npm run lighthouse` is not part of `npm test`, but borrows the tests' server and sign-up: they must load outside
// vitest's runner, as the script loads them (a helper that loaded vitest twice once broke it unnoticed).
describe('what npm run lighthouse borrows from the tests', () => {
  it('loads with tsx outside vitest, every name the script takes', { timeout: 60_000 }, async () => {
    const load = `
      const { tsImport } = await import('tsx/esm/api');
      const borrowed = await tsImport('./scripts/lighthouse-support.ts', import.meta.url);
      console.log(JSON.stringify(Object.keys(borrowed).sort()));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', load], {
      cwd: ROOT,
      env: { ...process.env, VITEST: undefined, VITEST_WORKER_ID: undefined, VITEST_POOL_ID: undefined },
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual([
      'CAPTCHA_TEST_CODE',
      'CHROMIUM_FLAGS',
      'CHROMIUM_PATH',
      'httpClient',
      'signUp',
      'startServer',
    ]);
  });
});
