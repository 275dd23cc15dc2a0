import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { contractAlias } from './vite.config.ts';

/**
 * The operator console: a bundle of its own (customers never load it), in a dist folder of its own. Its URLs are
 * relative (`./assets/…`), as the console's path is the server's runtime `ADMIN_PATH`: the server writes
 * `<base href="ADMIN_PATH/">` into the page it serves, which both the assets and the router follow.
 */
export default defineConfig({
  base: './',
  plugins: [react()],
  resolve: { alias: contractAlias },
  // The panel's public files (its icon, its manifest) are not the console's.
  publicDir: false,
  server: { proxy: { '/admin/api': 'http://localhost:8080' } },
  build: {
    outDir: 'console/dist',
    // One file for the shell (React, Mantine, the router, the query cache): operators load it once, at their desks.
    chunkSizeWarningLimit: 600,
    emptyOutDir: true,
    rolldownOptions: {
      input: { console: fileURLToPath(new URL('console.html', import.meta.url)) },
      // As for the panel: the contract holds only schemas and constants, and the console takes what it calls.
      treeshake: {
        moduleSideEffects: (id: string) => (id.includes('/packages/contract/src/') ? false : undefined),
      },
    },
  },
});
