import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPlugin, { consolePage } from './web.js';

const CONSOLE_HTML =
  '<!doctype html><html><head><title>Console</title><script type="module" src="./assets/console-abc.js"></script></head><body></body></html>';

/** The web plugin alone, the console under `adminPath`, beside one route of the console's API. */
async function serve(adminPath: string, consoleDistDir: string, distDir: string): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(
    fp(
      async (db) => {
        db.decorate('pingDatabase', async () => {});
      },
      { name: 'db' },
    ),
  );
  app.get(`${adminPath}/api/session`, () => ({ code: 0, msg: 'OK', data: null }));
  await app.register(webPlugin, {
    distDir,
    consoleDistDir,
    adminPath,
    runtimeConfig: { version: '1', websiteUrl: 'https://example.com/', downloads: {} as never },
  });
  return app;
}

describe('serving the operator console', () => {
  let dir: string;
  let consoleDist: string;
  let ops: FastifyInstance;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-console-'));
    consoleDist = path.join(dir, 'console');
    await fs.mkdir(path.join(consoleDist, 'assets'), { recursive: true });
    await fs.writeFile(path.join(consoleDist, 'console.html'), CONSOLE_HTML);
    await fs.writeFile(path.join(consoleDist, 'assets', 'console-abc.js'), 'export {};');
    ops = await serve('/ops', consoleDist, path.join(dir, 'no-panel'));
  });
  afterAll(async () => {
    await ops?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it.each(['/ops/', '/ops/operators', '/ops/audit?x=1', '/ops/a/b'])(
    'answers %s with the console page, its base the console path, never cached, under its own policy',
    async (url) => {
      const response = await ops.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<head><base href="/ops/">');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("base-uri 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("'unsafe-eval'");
    },
  );

  it('redirects the bare path, serves hashed assets for good, and leaves the API its own paths', async () => {
    expect((await ops.inject('/ops')).headers.location).toBe('/ops/');
    const asset = await ops.inject('/ops/assets/console-abc.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await ops.inject('/ops/assets/gone-123.js')).statusCode).toBe(404);
    expect((await ops.inject('/ops/api/session')).json()).toEqual({ code: 0, msg: 'OK', data: null });
    expect((await ops.inject('/ops/api/nothing')).statusCode).toBe(404);
    expect((await ops.inject({ method: 'POST', url: '/ops/api/nothing' })).statusCode).toBe(404);
    expect((await ops.inject('/admin/')).statusCode).toBe(404);
  });

  it('answers 503 until the console is built', async () => {
    const unbuilt = await serve('/admin', path.join(dir, 'missing'), path.join(dir, 'no-panel'));
    expect((await unbuilt.inject('/admin/')).statusCode).toBe(503);
    await unbuilt.close();
  });

  it('puts the base first in the head', () => {
    expect(consolePage('<html><head><title>x</title></head></html>', '/admin')).toBe(
      '<html><head><base href="/admin/"><title>x</title></head></html>',
    );
  });
});
