import { defineConfig } from 'vitest/config';

/** The leak scan (src/test/secrets-in-logs.scan.ts), run by `npm test` after every other suite. */
export default defineConfig({
  test: {
    name: 'log-scan',
    root: import.meta.dirname,
    include: ['src/test/secrets-in-logs.scan.ts'],
    environment: 'node',
    testTimeout: 120_000,
  },
});
