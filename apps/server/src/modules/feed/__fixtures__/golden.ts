/**
 * Golden files: the expected output of a renderer, checked by hand against the clients' own definitions once, then
 * compared exactly. `UPDATE_GOLDEN=1` rewrites them (and the diff is then reviewed like code).
 *
 * A JSON golden file is compared through its canonical form (`JSON.stringify(…, null, 2)`, key order kept), so that
 * the repository's formatter may lay it out its own way; every key, value, type and order still has to match.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

export function expectGolden(file: URL, actual: string): void {
  if (process.env.UPDATE_GOLDEN === '1') {
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`missing golden file ${file.pathname}; write it with UPDATE_GOLDEN=1`);
  const golden = readFileSync(file, 'utf8');
  const expected = file.pathname.endsWith('.json') ? `${JSON.stringify(JSON.parse(golden), null, 2)}\n` : golden;
  expect(actual).toBe(expected);
}
