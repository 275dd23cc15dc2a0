import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const INDEX_HTML =
  '<!doctype html><html><head><title>Mutenet</title></head><body><div id="root"></div></body></html>';
export const CHECKOUT_HTML =
  '<!doctype html><html><head><title>Checkout</title></head><body><div id="pay"></div></body></html>';

/**
 * A built web app of two pages in a temporary folder, for `WEB_DIST_DIR`: the server registers the routes of the
 * panel and of the hosted checkout only when it finds them.
 */
export async function writeWebDist() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-dist-'));
  await fs.writeFile(path.join(dir, 'index.html'), INDEX_HTML);
  await fs.writeFile(path.join(dir, 'checkout.html'), CHECKOUT_HTML);
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}
