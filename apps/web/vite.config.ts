import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { DEFAULT_LANGUAGE } from '../../packages/contract/src/language.ts';

/** The contract is consumed as source: its `.js` specifiers resolve to the `.ts` files beside them. */
export const contractAlias = {
  '@mutenet/contract': fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url)),
};

const server = 'http://localhost:8080';

/**
 * The strings of the default language are fetched with the page rather than after its scripts have run (another
 * language, chosen in the tab or by `?lang=`, loads on demand).
 */
function preloadDefaultLanguage(): Plugin {
  let base = '/';
  return {
    name: 'mutenet-preload-default-language',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { filename, bundle }) {
        if (!filename.endsWith('index.html') || !bundle) return [];
        const strings = Object.values(bundle).find(
          (chunk) =>
            chunk.type === 'chunk' && chunk.facadeModuleId?.endsWith(`/src/i18n/resources/${DEFAULT_LANGUAGE}.ts`),
        );
        if (strings?.type !== 'chunk') throw new Error(`no chunk holds the ${DEFAULT_LANGUAGE} strings`);
        return [strings.fileName, ...strings.imports]
          .filter((file) => !html.includes(file))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

/**
 * The panel's scripts are fetched at low priority: the brand index.html paints once its style sheets have arrived,
 * rather than competing with the scripts for the bandwidth (which the screens need only once they have all arrived).
 */
const scriptsAfterStyles: Plugin = {
  name: 'mutenet-scripts-after-styles',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, { filename }) {
      if (!filename.endsWith('index.html')) return html;
      return html.replace(/<(script type="module"|link rel="modulepreload") /g, '<$1 fetchpriority="low" ');
    },
  },
};

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

const SCREENS_SHARED =
  /node_modules[\\/]@mantine[\\/](hooks[\\/]|core[\\/]esm[\\/](core|utils|components[\\/](SimpleGrid|ThemeIcon|Paper|Title|Progress|Card|VisuallyHidden))[\\/])|apps[\\/]web[\\/]src[\\/]app[\\/]use-url-options\.ts$/;
const ONLY_OVERLAYS_AND_FORMS =
  /use-(drag|long-press|focus-trap|focus-return|click-outside|debounced-callback)[\\/]|utils[\\/](Floating|InlineInput|InputsGroupFieldset)[\\/]|create-scoped-keydown-handler/;

/**
 * V8 compiles a function when it is first called, on the main thread: a third of the scripts' time there as a screen
 * first loads, on a slow phone as in Lighthouse. This comment at the top of a file (Chrome 136 on; others ignore it)
 * has every function of the file compiled at once, on the thread that streams the file in: each file holds what its
 * screen runs as it shows (https://v8.dev/blog/explicit-compile-hints). Written into the files, above what Vite adds.
 */
const compileScriptsAsTheyLoad: Plugin = {
  name: 'mutenet-compile-as-they-load',
  apply: 'build',
  // Before the compressed copies are written.
  writeBundle: {
    order: 'pre',
    sequential: true,
    async handler({ dir = '' }, bundle) {
      const scripts = Object.values(bundle).filter((chunk) => chunk.type === 'chunk');
      await Promise.all(
        scripts.map(async ({ fileName }) => {
          const file = path.join(dir, fileName);
          await fs.writeFile(file, `//# allFunctionsCalledOnLoad\n${await fs.readFile(file, 'utf8')}`);
        }),
      );
    },
  },
};

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a Brotli (best) and a gzip (level 9) copy beside each script and stylesheet: the server sends the copy the
 * browser takes (`preCompressed`), smaller than what it would compress on the fly and at no cost per request.
 */
const precompressAssets: Plugin = {
  name: 'mutenet-precompress',
  apply: 'build',
  async writeBundle({ dir = '' }, bundle) {
    const files = Object.keys(bundle).filter((file) => /\.(js|css)$/.test(file));
    await Promise.all(
      files.map(async (file) => {
        const source = await fs.readFile(path.join(dir, file));
        const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY };
        await fs.writeFile(path.join(dir, `${file}.br`), await brotli(source, { params }));
        await fs.writeFile(
          path.join(dir, `${file}.gz`),
          await gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
        );
      }),
    );
  },
};

export default defineConfig({
  base: '/person/',
  plugins: [
    react(),
    checkoutInDevelopment,
    preloadDefaultLanguage(),
    scriptsAfterStyles,
    compileScriptsAsTheyLoad,
    precompressAssets,
  ],
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
    // dist/.vite/manifest.json: which files each page and screen loads, read by the bundle budget test.
    manifest: true,
    // Two pages: the panel, and the hosted checkout that the server serves for every path under /shopDetails/.
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        checkout: fileURLToPath(new URL('checkout.html', import.meta.url)),
      },
      output: {
        // Fewer, larger files for the first screen (each costs a request and compresses worse alone); the libraries
        // that only later screens use are split with those screens.
        codeSplitting: {
          groups: [
            // What both pages run: React, zod for the contract's schemas, the contract's envelope and languages, the
            // order statuses' names, the amounts' format, and Vite's modulepreload polyfill: one file rather than seven.
            {
              name: 'common',
              test: /node_modules[\\/](react|react-dom|scheduler|zod)[\\/]|packages[\\/]contract[\\/]src[\\/](endpoint|envelope|language)\.ts$|src[\\/](i18n[\\/]order-statuses|lib[\\/](money|numbers))\.ts$|modulepreload-polyfill/,
              priority: 2,
            },
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 1 },
            // What the first load shares with the screens loaded on demand (the translations' set-up, storage, the
            // loader of dynamic imports): one file, rather than one each.
            {
              name: 'shared',
              test: /apps[\\/]web[\\/]src[\\/](i18n[\\/](i18n|use-language)|lib[\\/]storage|components[\\/]ui[\\/]icons)\.tsx?$|packages[\\/]contract[\\/]src[\\/]messages\.ts$|preload-helper/,
              tags: ['$initial'],
              includeDependenciesRecursively: false,
            },
            // What the screens loaded on demand share beyond the first load: Mantine's small helpers and hooks, the
            // small display components several screens show, and the hook that reads the URL's mode. One file rather
            // than a dozen of a few hundred bytes each, as each file costs a request before a screen can show. What
            // only dialogs, menus and forms use stays with them.
            {
              name: 'screens-shared',
              test: (id: string) => SCREENS_SHARED.test(id) && !ONLY_OVERLAYS_AND_FORMS.test(id),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
      // The contract holds only schemas and constants: a page takes the endpoints it calls, not the whole index
      // (the checkout page would otherwise carry every message and rule of the panel).
      treeshake: {
        moduleSideEffects: (id: string) => (id.includes('/packages/contract/src/') ? false : undefined),
      },
    },
  },
});
