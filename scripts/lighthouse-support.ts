// What `npm run lighthouse` borrows from the tests, loaded by one `tsImport`: each call loads its modules anew, and
// vitest (which the server tests' helpers import) refuses to load twice outside its runner.

export { signUp } from '../apps/server/src/test/accounts.ts';
export { httpClient } from '../apps/server/src/test/http-client.ts';
export { CAPTCHA_TEST_CODE } from '../apps/server/src/test/test-app.ts';
export { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../apps/web/e2e/support/chromium.ts';
export { startServer } from '../apps/web/e2e/support/server.ts';
