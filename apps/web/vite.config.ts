import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The contract is consumed as source: its `.js` specifiers resolve to the `.ts` files beside them. */
export const contractAlias = {
  '@mutenet/contract': fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url)),
};

const server = 'http://localhost:8080';

export default defineConfig({
  base: '/person/',
  plugins: [react()],
  resolve: { alias: contractAlias },
  server: {
    proxy: {
      '/mutenet': server,
      '/payment': server,
      '/shopDetails': server,
      '/sub': server,
      '/person/config.json': server,
      '/healthz': server,
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
