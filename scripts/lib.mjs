import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** Runs a command in the repository root with inherited output; exits with its status when it fails. */
export function run(label, command, args, env = {}) {
  process.stdout.write(`\n> ${label}\n`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    process.stderr.write(`\n${label} failed${result.status === null ? ` (${result.signal})` : ''}\n`);
    process.exit(result.status ?? 1);
  }
}

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** True when the built web app is missing or older than any of its sources. */
export function webBuildIsStale() {
  const built = path.join(ROOT, 'apps/web/dist/index.html');
  if (!fs.existsSync(built)) return true;
  const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contract/src'];
  return Math.max(...sources.map((source) => newestMtime(path.join(ROOT, source)))) > fs.statSync(built).mtimeMs;
}

/** Builds the contract and the server (incremental, quick when nothing changed) and the web app when stale. */
export function build({ force = false } = {}) {
  run('build contract and server', 'npx', ['tsc', '-b', 'packages/contract', 'apps/server']);
  if (force || webBuildIsStale()) run('build web', 'npm', ['run', 'build', '-w', '@mutenet/web']);
}
