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
    // Test files share their worker's modules (the set-up resets what a test may change; none mocks a module, and
    // i18n's test of lazy loading imports a module of its own): loading Mantine and Testing Library anew for each
    // file was two thirds of the suite's time.
    isolate: false,
  },
});
