import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { CHECKOUT_PATH_PREFIX, RUNTIME_CONFIG_PATH, type RuntimeConfig } from '@mutenet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CHECKOUT_POLICY, CONSOLE_POLICY, cspHeader, PANEL_POLICY } from '../../lib/content-security-policy.js';

export type WebOptions = {
  distDir: string;
  runtimeConfig: RuntimeConfig;
  /** The operator console's build, served under `adminPath` (ADMIN_PATH). */
  consoleDistDir: string;
  adminPath: string;
};

const IMMUTABLE = 'public, max-age=31536000, immutable';
const CHECKOUT_PAGE = 'checkout.html';
const CONSOLE_PAGE = 'console.html';

/**
 * The console's page with `<base href="ADMIN_PATH/">`: it is built with relative URLs, so one build serves under any
 * ADMIN_PATH, its assets, its router and its API calls all following the base.
 */
export function consolePage(html: string, adminPath: string): string {
  return html.replace(/<head>/i, `<head><base href="${adminPath}/">`);
}

/**
 * The operator console under ADMIN_PATH: its page for ADMIN_PATH/ and every path below (the console's router takes
 * it) but the API's, its hashed assets cached for good. The same routes whether or not it is built (503 until then).
 */
async function serveConsole(fastify: FastifyInstance, distDir: string, adminPath: string) {
  const pageFile = path.join(distDir, CONSOLE_PAGE);
  const page = fs.existsSync(pageFile) ? consolePage(fs.readFileSync(pageFile, 'utf8'), adminPath) : undefined;
  if (!page) fastify.log.warn({ distDir }, 'the operator console is not built: run `npm run build`');
  const policy = cspHeader(CONSOLE_POLICY);
  const sendPage = (_request: FastifyRequest, reply: FastifyReply) => {
    if (!page) {
      return reply.code(503).type('text/plain; charset=utf-8').send('The console is not built: run `npm run build`.');
    }
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', policy)
      .type('text/html; charset=utf-8')
      .send(page);
  };

  fastify.get(adminPath, (_request, reply) => reply.redirect(`${adminPath}/`));
  fastify.get(`${adminPath}/`, sendPage);
  fastify.get(`${adminPath}/*`, sendPage);
  // An API path that no route takes is the API's 404, not the console's page.
  fastify.route({
    method: ['GET', 'POST', 'PUT', 'DELETE'],
    url: `${adminPath}/api/*`,
    handler: (_request, reply) => reply.callNotFound(),
  });
  await fastify.register(async (files) => {
    if (page) {
      await files.register(fastifyStatic, {
        root: path.join(distDir, 'assets'),
        prefix: `${adminPath}/assets/`,
        wildcard: false,
        index: false,
        preCompressed: true,
        cacheControl: false,
        setHeaders(reply) {
          reply.header('cache-control', IMMUTABLE);
        },
      });
    }
    files.get(`${adminPath}/assets/*`, (_request, reply) => reply.callNotFound());
  });
}

/**
 * Serves the panel under /person/: hashed assets cached for good, index.html never cached, and any other path
 * under /person/ answered with index.html so that the SPA's router takes it. Also the runtime configuration, the
 * redirect of / and the health check.
 */
export default fp<WebOptions>(
  async (fastify, { distDir, runtimeConfig, consoleDistDir, adminPath }) => {
    await serveConsole(fastify, consoleDistDir, adminPath);

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
