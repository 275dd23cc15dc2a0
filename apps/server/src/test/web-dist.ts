import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const INDEX_HTML =
  '<!doctype html><html><head><title>Mutenet</title></head><body><div id="root"></div></body></html>';
export const CHECKOUT_HTML =
  '<!doctype html><html><head><title>Checkout</title></head><body><div id="pay"></div></body></html>';

export const CONSOLE_HTML =
  '<!doctype html><html><head><title>Console</title></head><body><div id="console"></div></body></html>';

/**
 * A built web app of two pages in a temporary folder, for `WEB_DIST_DIR`: the server registers the routes of the
 * panel and of the hosted checkout only when it finds them. Beside it, the console's page for `CONSOLE_DIST_DIR`.
 */
export async function writeWebDist() {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-dist-'));
  const dir = path.join(root, 'web');
  const consoleDir = path.join(root, 'console');
  await fs.mkdir(dir);
  await fs.mkdir(consoleDir);
  await fs.writeFile(path.join(dir, 'index.html'), INDEX_HTML);
  await fs.writeFile(path.join(dir, 'checkout.html'), CHECKOUT_HTML);
  await fs.writeFile(path.join(consoleDir, 'console.html'), CONSOLE_HTML);
  return {
    dir,
    /** The dist folders as the server's environment names them. */
    env: { WEB_DIST_DIR: dir, CONSOLE_DIST_DIR: consoleDir },
    remove: () => fs.rm(root, { recursive: true, force: true }),
  };
}
