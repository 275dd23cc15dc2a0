import fs from 'node:fs/promises';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { MESSAGES, RUNTIME_CONFIG_PATH, RuntimeConfigSchema } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRaw, httpClient } from '../../test/http-client.js';
import { cspOf, expectSecurityHeaders } from '../../test/security-headers.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

const INDEX_HTML = '<!doctype html><html><head><title>Mutenet</title></head><body><div id="root"></div></body></html>';
const CHECKOUT_HTML =
  '<!doctype html><html><head><title>Checkout</title></head><body><div id="root"></div></body></html>';
// Larger than the 1 KB threshold of compression, and compressible.
const APP_JS = Array.from({ length: 200 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n');
const STYLE_CSS = Array.from({ length: 200 }, (_, i) => `.c${i} { margin: ${i}px; }`).join('\n');

/** The panel's policy: its own scripts (files only) and styles, Mantine's style elements, data: captchas, no framing. */
function expectPanelPolicy(headers: http.IncomingHttpHeaders) {
  expectSecurityHeaders(headers);
  const csp = cspOf(headers);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  expect(csp.get('style-src-attr')).toEqual(["'none'"]);
  expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
  expect(csp.get('connect-src')).toEqual(["'self'"]);
  expect(csp.get('frame-src')).toEqual(["'none'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
}

describe('the built web app', () => {
  let app: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-web-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), INDEX_HTML);
    await fs.writeFile(path.join(dist, 'checkout.html'), CHECKOUT_HTML);
    await fs.writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await fs.writeFile(path.join(dist, 'assets', 'app-abc123.js'), APP_JS);
    await fs.writeFile(path.join(dist, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(APP_JS));
    await fs.writeFile(path.join(dist, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(APP_JS));
    await fs.writeFile(path.join(dist, 'assets', 'style-def456.css'), STYLE_CSS);
    app = await startTestApp({
      env: {
        WEB_DIST_DIR: dist,
        APP_VERSION: '9.8.7',
        WEBSITE_URL: 'https://mutenet.example.com/',
        DOWNLOAD_URL_V2RAYNG: 'https://downloads.example.com/v2rayng.apk',
        DOWNLOAD_URL_SHADOWROCKET: 'https://apps.example.com/shadowrocket',
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('redirects / and /person to /person/', async () => {
    for (const from of ['/', '/person']) {
      const { status, headers } = await httpClient(app.url).get(from);
      expect(status).toBe(302);
      expect(headers.get('location')).toBe('/person/');
    }
  });

  it.each([
    '/person/',
    '/person/login',
    '/person/pannel/mobile/en',
    '/person/index.html',
    '/person/a/b/c?x=1',
    '/person/shop',
    '/person/shop/mobile/en?lang=en',
  ])('answers %s with index.html, never cached, under the panel’s policy', async (url) => {
    const { status, headers, body } = await getRaw(`${app.url}${url}`);
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/html/);
    expect(headers['cache-control']).toBe('no-cache');
    expect(body.toString('utf8')).toBe(INDEX_HTML);
    expectPanelPolicy(headers);
  });

  it.each(['/shopDetails/en/202608011200001234567890', '/shopDetails/pt-BR/x', '/person/checkout.html'])(
    'answers %s with the checkout page, under a policy with no inline style and no form',
    async (url) => {
      const { status, headers, body } = await getRaw(`${app.url}${url}`);
      expect(status).toBe(200);
      expect(headers['cache-control']).toBe('no-cache');
      expect(body.toString('utf8')).toBe(CHECKOUT_HTML);
      expectSecurityHeaders(headers);
      const csp = cspOf(headers);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('img-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.get('frame-src')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'none'"]);
    },
  );

  it('serves a hashed asset for good', async () => {
    const { status, headers, body } = await getRaw(`${app.url}/person/assets/app-abc123.js`);
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/javascript/);
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(headers['content-encoding']).toBeUndefined();
    expect(body.toString('utf8')).toBe(APP_JS);
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves other files of the build without long caching', async () => {
    const { status, headers } = await getRaw(`${app.url}/person/favicon.svg`);
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(headers['cache-control']).toBe('no-cache');
  });

  it.each([
    ['br', (body: Buffer) => zlib.brotliDecompressSync(body)],
    ['gzip', (body: Buffer) => zlib.gunzipSync(body)],
  ] as const)('sends the precompressed %s file, which decompresses to the asset', async (encoding, decompress) => {
    const { status, headers, body } = await getRaw(`${app.url}/person/assets/app-abc123.js`, {
      'accept-encoding': encoding,
    });
    expect(status).toBe(200);
    expect(headers['content-encoding']).toBe(encoding);
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(headers.vary).toMatch(/accept-encoding/i);
    expect(body.length).toBeLessThan(Buffer.byteLength(APP_JS));
    expect(decompress(body).toString('utf8')).toBe(APP_JS);
  });

  it('prefers brotli when the browser takes both', async () => {
    const { headers, body } = await getRaw(`${app.url}/person/assets/app-abc123.js`, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(body).toString('utf8')).toBe(APP_JS);
  });

  it.each([
    ['br', (body: Buffer) => zlib.brotliDecompressSync(body)],
    ['gzip', (body: Buffer) => zlib.gunzipSync(body)],
  ] as const)('compresses an asset that has no precompressed file (%s)', async (encoding, decompress) => {
    const { status, headers, body } = await getRaw(`${app.url}/person/assets/style-def456.css`, {
      'accept-encoding': encoding,
    });
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/css/);
    expect(headers['content-encoding']).toBe(encoding);
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decompress(body).toString('utf8')).toBe(STYLE_CSS);
  });

  it.each(['/person/assets/app-000000.js', '/person/assets/', '/person/assets/app-abc123.js.map'])(
    'answers a missing asset %s with 404, not with the page',
    async (url) => {
      const { status, body, headers } = await httpClient(app.url, { language: 'en' }).get(url);
      expect(status).toBe(404);
      expect(headers.get('content-type')).toMatch(/^application\/json/);
      expect(body).toEqual({ code: 404, msg: MESSAGES.NOT_FOUND.en, data: null });
    },
  );

  it.each([
    '/person/..%2f..%2f..%2fetc%2fpasswd',
    '/person/%2e%2e/%2e%2e/etc/passwd',
    '/person/assets/..%2f..%2fpackage.json',
  ])('serves nothing outside the build for %s', async (url) => {
    const { status, body } = await getRaw(`${app.url}${url}`);
    const text = body.toString('utf8');
    expect([200, 404]).toContain(status);
    if (status === 200) expect(text).toBe(INDEX_HTML);
    expect(text).not.toContain('root:');
    expect(text).not.toContain('"name"');
  });

  it('serves the runtime configuration from the environment', async () => {
    const { status, body, headers } = await httpClient(app.url).get(RUNTIME_CONFIG_PATH);
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-cache');
    const config = RuntimeConfigSchema.parse(body);
    expect(config).toEqual({
      version: '9.8.7',
      websiteUrl: 'https://mutenet.example.com/',
      downloads: {
        officialAndroid: 'https://github.com/2dust/v2rayNG/releases',
        v2rayNG: 'https://downloads.example.com/v2rayng.apk',
        clashWindows: 'https://github.com/clash-verge-rev/clash-verge-rev/releases',
        shadowrocket: 'https://apps.example.com/shadowrocket',
        foxray: 'https://apps.apple.com/app/foxray/id6448898396',
      },
    });
  });

  it('answers the health check', async () => {
    const { status, body, headers } = await httpClient(app.url).get('/healthz');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok' });
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('sends the security headers on the API as well, under a policy that loads nothing', async () => {
    const { headers } = await httpClient(app.url).get('/mutenet/verify/code/img');
    expectSecurityHeaders(headers);
    expect(cspOf(headers).get('default-src')).toEqual(["'none'"]);
  });

  it('gives the files of the build other than the two pages the policy of answers', async () => {
    const { headers } = await getRaw(`${app.url}/person/favicon.svg`);
    expectSecurityHeaders(headers);
    expect(cspOf(headers).get('default-src')).toEqual(["'none'"]);
  });
});

describe('without a built web app', () => {
  let app: TestApp;

  beforeAll(async () => {
    // The test app points WEB_DIST_DIR at a folder that does not exist.
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each(['/person/', '/person/login', '/person/assets/app-abc123.js'])(
    'answers %s with 503 and says why',
    async (url) => {
      const { status, text, headers } = await httpClient(app.url).get(url);
      expect(status).toBe(503);
      expect(headers.get('content-type')).toMatch(/^text\/plain/);
      expect(text).toBe('The web app is not built: run `npm run build`.');
    },
  );

  it('still serves the runtime configuration, the health check and the API', async () => {
    const api = httpClient(app.url);
    expect(RuntimeConfigSchema.safeParse((await api.get(RUNTIME_CONFIG_PATH)).body).success).toBe(true);
    expect((await api.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await api.get('/mutenet/verify/code/img')).body.code).toBe(0);
    expect((await api.get('/')).headers.get('location')).toBe('/person/');
  });

  it('says so in the log at start', () => {
    expect(app.logs.join('')).toContain('the web app is not built');
  });
});
