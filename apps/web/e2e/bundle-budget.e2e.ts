import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

const DIST = path.resolve(import.meta.dirname, '../dist');
const KB = 1024;
/** Scripts and styles of the login screen, and of every page and screen together, as the server sends them. */
const LOGIN_BUDGET = 150 * KB;
const APP_BUDGET = 300 * KB;

type ManifestChunk = { file: string; src?: string; imports?: string[]; css?: string[]; isDynamicEntry?: boolean };
type Manifest = Record<string, ManifestChunk>;

const manifest = (): Manifest => JSON.parse(fs.readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8'));

/** The files a page loads before it runs: its entry, the chunks it imports statically, and their styles. */
function staticClosure(chunks: Manifest, key: string, files = new Set<string>()): Set<string> {
  const chunk = chunks[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) staticClosure(chunks, imported, files);
  return files;
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

describe('the web app’s weight', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the login screen with at most 150 KB of scripts and styles, and nothing of another screen', async () => {
    const tab = await openPage(browser, server.url);
    const transfers: Promise<{ url: string; encoding: string; bytes: number }>[] = [];
    tab.on('requestfinished', (request) => {
      if (!['script', 'stylesheet'].includes(request.resourceType())) return;
      transfers.push(
        Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
          url: new URL(request.url()).pathname,
          encoding: response?.headers()['content-encoding'] ?? 'identity',
          bytes: sizes.responseBodySize,
        })),
      );
    });
    await tab.goto('/person/login');
    await tab.getByTestId('captcha-picture').waitFor();
    await tab.waitForLoadState('networkidle');
    const loaded = await Promise.all(transfers);

    const total = loaded.reduce((sum, file) => sum + file.bytes, 0);
    const list = loaded.map((file) => `${file.url} ${kb(file.bytes)} ${file.encoding}`).join('\n');
    expect(total, `the login screen loaded ${kb(total)}:\n${list}`).toBeLessThanOrEqual(LOGIN_BUDGET);
    // Compressed by the build at its best, not on the fly.
    expect(loaded.filter((file) => file.encoding !== 'br')).toEqual([]);

    // Beyond the first load, only the strings of the language on screen (Portuguese by default).
    const chunks = manifest();
    const firstLoad = staticClosure(chunks, 'index.html');
    const language = [...staticClosure(chunks, 'src/i18n/resources/por.ts')].filter((file) => !firstLoad.has(file));
    const onDemand = loaded.map((file) => file.url.replace('/person/', '')).filter((file) => !firstLoad.has(file));
    expect(onDemand.sort()).toEqual(language.sort());
  });

  it('loads every screen but the login one on demand', () => {
    const chunks = manifest();
    const screens = fs
      .readdirSync(path.join(DIST, '../src/app/routes'))
      .filter((file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'))
      .map((file) => `src/app/routes/${file}`)
      .filter((screen) => !['src/app/routes/login.tsx', 'src/app/routes/root.tsx'].includes(screen));
    const firstLoad = staticClosure(chunks, 'index.html');
    for (const screen of screens) {
      const chunk = chunks[screen];
      expect(chunk?.isDynamicEntry, `${screen} has a chunk of its own`).toBe(true);
      expect(firstLoad.has(chunk?.file ?? ''), `${screen} is not in the first load`).toBe(false);
    }
  });

  it('has V8 compile each script as it streams in, rather than each function on the main thread when first called', () => {
    const assets = path.join(DIST, 'assets');
    const scripts = fs.readdirSync(assets).filter((file) => file.endsWith('.js'));
    const unmarked = scripts.filter(
      (file) => !fs.readFileSync(path.join(assets, file), 'utf8').startsWith('//# allFunctionsCalledOnLoad\n'),
    );
    expect(scripts.length).toBeGreaterThan(0);
    expect(unmarked).toEqual([]);
  });

  it('keeps every page and screen together within 300 KB, as the server sends them', () => {
    const assets = path.join(DIST, 'assets');
    const files = fs.readdirSync(assets).filter((file) => /\.(js|css)$/.test(file));
    const sizes = files.map((file) => {
      // The server sends the Brotli copy the build wrote beside each file; every file must have one.
      const brotli = path.join(assets, `${file}.br`);
      expect(fs.existsSync(brotli), `${file}.br`).toBe(true);
      return fs.statSync(brotli).size;
    });
    const total = sizes.reduce((sum, size) => sum + size, 0);
    expect(total, `the app weighs ${kb(total)} in ${files.length} files`).toBeLessThanOrEqual(APP_BUDGET);
  });
});
