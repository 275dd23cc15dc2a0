import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonPrintedBy } from './module-script.js';

const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-web-build-'));
afterAll(() => fs.rm(dist, { recursive: true, force: true }));

/** What `scripts/lib.mjs` says of the build in `dist`, run as `npm start` runs it, with NODE_ENV=development. */
function underDevelopment<T>(body: string): Promise<T> {
  return jsonPrintedBy<T>(`
    process.env.NODE_ENV = 'development';
    const { buildWeb, webBuildIsStale } = await import('./scripts/lib.mjs');
    const dist = ${JSON.stringify(dist)};
    ${body}`);
}

// `npm start` and `npm run build` under NODE_ENV=development once shipped React's development bundle: a login screen
// of 226 KB, and a checkout that sent its order call twice.
describe('the web build of npm start and npm run build', () => {
  it('is a production build whatever NODE_ENV says', { timeout: 120_000 }, async () => {
    const stale = await underDevelopment<{ before: boolean; after: boolean }>(`
      const before = webBuildIsStale(dist);
      buildWeb(dist, { toStderr: true });
      console.log(JSON.stringify({ before, after: webBuildIsStale(dist) }));`);
    expect(stale).toEqual({ before: true, after: false });

    const assets = path.join(dist, 'assets');
    const scripts = (await fs.readdir(assets)).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    // React's development JSX runtime, or its warnings.
    const development: string[] = [];
    for (const file of scripts) {
      if (/jsxDEV|validateDOMNesting/.test(await fs.readFile(path.join(assets, file), 'utf8'))) development.push(file);
    }
    expect(development).toEqual([]);
  });

  it('builds again a build it does not know to be for production (one made by vite build alone)', async () => {
    await fs.rm(path.join(dist, '.vite', 'mutenet-build.json'), { force: true });
    expect(await underDevelopment<boolean>('console.log(JSON.stringify(webBuildIsStale(dist)));')).toBe(true);
  });
});
