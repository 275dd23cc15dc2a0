import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { CHECKOUT_PATH_PREFIX, RUNTIME_CONFIG_PATH, type RuntimeConfig } from '@mutenet/contract';
import fp from 'fastify-plugin';
import { CHECKOUT_POLICY, cspHeader, PANEL_POLICY } from '../../lib/content-security-policy.js';

export type WebOptions = { distDir: string; runtimeConfig: RuntimeConfig };

const IMMUTABLE = 'public, max-age=31536000, immutable';
const CHECKOUT_PAGE = 'checkout.html';

/**
 * Serves the panel under /person/: hashed assets cached for good, index.html never cached, and any other path
 * under /person/ answered with index.html so that the SPA's router takes it. Also the runtime configuration, the
 * redirect of / and the health check.
 */
export default fp<WebOptions>(
  async (fastify, { distDir, runtimeConfig }) => {
    const indexFile = path.join(distDir, 'index.html');
    const built = fs.existsSync(indexFile);
    // The two pages' own policies, however they are reached (their paths, or the files' own names under /person/).
    const pagePolicies = new Map([
      [indexFile, cspHeader(PANEL_POLICY)],
      [path.join(distDir, CHECKOUT_PAGE), cspHeader(CHECKOUT_POLICY)],
    ]);

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

    // Files go as streams: their compressed copies when the build made them, else compressed by @fastify/compress
    // (plugins/external/http.ts) as any answer.
    await fastify.register(async (files) => {
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
      files.get('/person/*', (_request, reply) => reply.sendFile('index.html'));
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
