// `npm test`: every check, in order, stopping at the first that fails; then one closing count line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, run } from './lib.mjs';

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'mutenet-test-'));
// The suites' log lines, error answers and the secrets they handled, for the leak scan that runs last.
const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'mutenet-test-logs-'));
const vitest = (label, name, args) =>
  run(
    label,
    'npx',
    [
      'vitest',
      'run',
      ...args,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${path.join(reports, `${name}.json`)}`,
    ],
    { MUTENET_TEST_LOG_DIR: logs },
  );

if (!process.env.TEST_DATABASE_URL) {
  process.stdout.write(
    'note: TEST_DATABASE_URL is not set, so the PostgreSQL suites run on SQLite only (CI sets it)\n',
  );
}
if (!process.env.TEST_REDIS_URL) {
  process.stdout.write('note: TEST_REDIS_URL is not set, so the Redis suites are left out (CI sets it)\n');
}

run('lint and format (biome)', 'npx', ['biome', 'check', '.']);
run('types (tsc -b)', 'npx', ['tsc', '-b']);
run('types of the server tests', 'npx', ['tsc', '--noEmit', '-p', 'apps/server/tsconfig.test.json']);
run('types of the browser tests', 'npx', ['tsc', '--noEmit', '-p', 'apps/web/e2e/tsconfig.json']);
// The benchmark is not run by the tests (timings are not assertions), but it must still build against the app.
run('types of the benchmark', 'npx', ['tsc', '--noEmit', '-p', 'bench/tsconfig.json']);
run('boundaries and cycles (dependency-cruiser)', 'npx', [
  'depcruise',
  'packages/contract/src',
  'apps/server/src',
  'apps/web/src',
  '--config',
  '.dependency-cruiser.cjs',
]);
vitest('unit, server and web tests (vitest)', 'unit', []);
build({ force: true });
vitest('browser tests (playwright in chromium)', 'e2e', ['--config', 'apps/web/e2e/vitest.config.ts']);
vitest('no secret in the logs and error answers of the run', 'log-scan', [
  '--config',
  'apps/server/vitest.log-scan.config.ts',
]);

let passed = 0;
let failed = 0;
for (const file of fs.readdirSync(reports)) {
  const report = JSON.parse(fs.readFileSync(path.join(reports, file), 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}
fs.rmSync(reports, { recursive: true, force: true });
fs.rmSync(logs, { recursive: true, force: true });
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
