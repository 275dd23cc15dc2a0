import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { CHECKOUT_PATH_PREFIX, RUNTIME_CONFIG_PATH, type RuntimeConfig } from '@mutenet/contract';
import fp from 'fastify-plugin';
import { COMPRESS_FROM_BYTES } from '../../lib/compression.js';
import {
  CHECKOUT_POLICY,
  type ContentSecurityPolicy,
  cspHeader,
  PANEL_POLICY,
  pagePolicy,
} from '../../lib/content-security-policy.js';

export type WebOptions = { distDir: string; runtimeConfig: RuntimeConfig };

const IMMUTABLE = 'public, max-age=31536000, immutable';
const CHECKOUT_PAGE = 'checkout.html';
/** The panel's page for the paths of one screen, naming that screen's scripts beside the first bundle's. */
const SCREEN_PAGES = 'screens';

/**
 * Serves the panel under /person/: hashed assets cached for good, index.html never cached, and any other path
 * under /person/ answered with index.html so that the SPA's router takes it, or, for a screen's path, with the page
 * the build wrote for that screen (`screens/{first segment}.html`: index.html naming the screen's scripts too). Also
 * the runtime configuration, the redirect of / and the health check.
 */
export default fp<WebOptions>(
  async (fastify, { distDir, runtimeConfig }) => {
    const indexFile = path.join(distDir, 'index.html');
    const built = fs.existsSync(indexFile);
    const screensDir = path.join(distDir, SCREEN_PAGES);
    const screenPages = new Set(
      fs.existsSync(screensDir)
        ? fs
            .readdirSync(screensDir)
            .filter((file) => file.endsWith('.html'))
            .map((file) => file.slice(0, -'.html'.length))
        : [],
    );
    // The pages' own policies, however they are reached (their paths, or the files' own names under /person/). A
    // screen's page may carry an inline script (its first calls, sent as it starts), allowed by its hash.
    const pages: (readonly [string, ContentSecurityPolicy])[] = [
      [indexFile, PANEL_POLICY],
      [path.join(distDir, CHECKOUT_PAGE), CHECKOUT_POLICY],
      ...[...screenPages].map((screen) => [path.join(screensDir, `${screen}.html`), PANEL_POLICY] as const),
    ];
    const pagePolicies = new Map(
      pages
        .filter(([file]) => fs.existsSync(file))
        .map(([file, policy]) => [file, cspHeader(pagePolicy(policy, fs.readFileSync(file, 'utf8')))]),
    );

    fastify.get('/', (_request, reply) => reply.redirect('/person/'));
    fastify.get('/person', (_request, reply) => reply.redirect('/person/'));

    fastify.get(RUNTIME_CONFIG_PATH, (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return runtimeConfig;
    });

    fastify.get('/healthz', async (_request, reply) => {
      await fastify.pingDatabase();
      reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    });

    if (!built) {
      fastify.log.warn({ distDir }, 'the web app is not built: run `npm run build`');
      fastify.get('/person/*', (_request, reply) =>
        reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built: run `npm run build`.'),
      );
      return;
    }

    // Files go as streams, compressed by @fastify/compress when they have no compressed copy (the pages, the icons):
    // in this context only, as its hooks would cost every other route something on each request.
    await fastify.register(async (files) => {
      await files.register(compress, { encodings: ['br', 'gzip'], threshold: COMPRESS_FROM_BYTES });
      await files.register(fastifyStatic, {
        root: distDir,
        prefix: '/person/',
        wildcard: false,
        index: false,
        preCompressed: true,
        cacheControl: false,
        setHeaders(reply, filePath) {
          reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : 'no-cache');
          const policy = pagePolicies.get(filePath);
          if (policy) reply.header('content-security-policy', policy);
        },
      });
      files.get('/person/', (_request, reply) => reply.sendFile('index.html'));
      files.get<{ Params: { '*': string } }>('/person/*', (request, reply) => {
        const screen = request.params['*'].split('/', 1)[0] ?? '';
        return reply.sendFile(screenPages.has(screen) ? `${SCREEN_PAGES}/${screen}.html` : 'index.html');
      });
      // The hosted checkout is the web app's second page, /shopDetails/{lang}/{orderNo}.
      if (fs.existsSync(path.join(distDir, CHECKOUT_PAGE))) {
        files.get(`${CHECKOUT_PATH_PREFIX}/*`, (_request, reply) => reply.sendFile(CHECKOUT_PAGE));
      }
      // A hashed file that is not there (an old build's chunk) is a 404, not the SPA's page served as JavaScript.
      files.get('/person/assets/*', (_request, reply) => reply.callNotFound());
    });
  },
  { name: 'web', dependencies: ['db'] },
);
