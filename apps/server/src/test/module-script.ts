import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/** The repository's root, where a script's relative imports start. */
const ROOT = path.resolve(import.meta.dirname, '../../../..');

/**
 * Runs `script` as an ES module in a Node process of its own (`flags` before it), from the repository's root and
 * outside vitest: without vitest's variables, which make a second load of vitest (a test helper imports it) refuse to
 * run. Returns the JSON its last line of output holds.
 */
export async function jsonPrintedBy<T>(script: string, flags: string[] = []): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, [...flags, '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, VITEST: undefined, VITEST_WORKER_ID: undefined, VITEST_POOL_ID: undefined },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}
