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
  },
});
