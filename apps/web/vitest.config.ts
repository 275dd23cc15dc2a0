import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { contractAlias } from './vite.config.ts';

export default defineProject({
  plugins: [react()],
  resolve: { alias: contractAlias },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup.ts'],
    // A guard against a test that hangs, not a measure of speed: the forms' tests type as a customer does, key by
    // key, and took up to 3.4 s of Vitest's default 5 beside the server's suites on a 2-core machine.
    testTimeout: 15_000,
    // Test files share their worker's modules (the set-up resets what a test may change; none mocks a module, and
    // i18n's test of lazy loading imports a module of its own): loading Mantine and Testing Library anew for each
    // file was two thirds of the suite's time.
    isolate: false,
  },
});
