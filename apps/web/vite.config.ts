import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** The contract is consumed as source: its `.js` specifiers resolve to the `.ts` files beside them. */
export const contractAlias = {
  '@mutenet/contract': fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url)),
};

const server = 'http://localhost:8080';

/** In development the checkout page is served from source, as the server serves the built one in production. */
const checkoutInDevelopment: Plugin = {
  name: 'mutenet-checkout-dev',
  configureServer(devServer) {
    devServer.middlewares.use((request, _response, next) => {
      if (request.url?.startsWith('/shopDetails/')) request.url = '/person/checkout.html';
      next();
    });
  },
};

export default defineConfig({
  base: '/person/',
  plugins: [react(), checkoutInDevelopment],
  resolve: { alias: contractAlias },
  server: {
    proxy: {
      '/mutenet': server,
      '/payment': server,
      '/sub': server,
      '/person/config.json': server,
      '/healthz': server,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Two pages: the panel, and the hosted checkout that the server serves for every path under /shopDetails/.
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        checkout: fileURLToPath(new URL('checkout.html', import.meta.url)),
      },
      // The contract holds only schemas and constants: a page takes the endpoints it calls, not the whole index
      // (the checkout page would otherwise carry every message and rule of the panel).
      treeshake: {
        moduleSideEffects: (id: string) => (id.includes('/packages/contract/src/') ? false : undefined),
      },
    },
  },
});
