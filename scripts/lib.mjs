import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Runs a command in the repository root with inherited output; exits with its status when it fails. With
 * `toStderr` its label and output go to standard error, leaving standard output to what runs after it.
 */
export function run(label, command, args, env = {}, { toStderr = false } = {}) {
  (toStderr ? process.stderr : process.stdout).write(`\n> ${label}\n`);
  const stdio = toStderr ? ['inherit', process.stderr.fd, 'inherit'] : 'inherit';
  const result = spawnSync(command, args, { cwd: ROOT, stdio, env: { ...process.env, ...env } });
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

const WEB_DIST = path.join(ROOT, 'apps/web/dist');
const CONSOLE_DIST = path.join(ROOT, 'apps/web/console/dist');
/** Written into the built web app once its build has succeeded: how it was built. Not served (a dot folder). */
const WEB_BUILD_STAMP = '.vite/mutenet-build.json';

const WEB_SOURCES = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/contract/src',
];
// The console's bundle shares the web app's sources (its config reads the web app's).
const CONSOLE_SOURCES = [...WEB_SOURCES, 'apps/web/console.html', 'apps/web/vite.console.config.ts'];

/**
 * True when the built web app is missing, older than any of its sources, or not known to be a production build (one
 * made by `vite build` alone may hold React's development bundle, when NODE_ENV said development).
 */
export function webBuildIsStale(dist = WEB_DIST, sources = WEB_SOURCES) {
  const stamp = path.join(dist, WEB_BUILD_STAMP);
  if (!fs.existsSync(stamp) || JSON.parse(fs.readFileSync(stamp, 'utf8')).mode !== 'production') return true;
  return Math.max(...sources.map((source) => newestMtime(path.join(ROOT, source)))) > fs.statSync(stamp).mtimeMs;
}

/**
 * Builds the web app for production whatever NODE_ENV says: under NODE_ENV=development Vite bundles React's
 * development build, larger and slower, which also runs each effect twice (the checkout sent its order call twice).
 */
export function buildWeb(dist = WEB_DIST, options = {}, { script = 'build', label = 'build web' } = {}) {
  const args = ['run', script, '-w', '@mutenet/web', '--', '--mode', 'production', '--outDir', dist];
  run(label, 'npm', args, { NODE_ENV: 'production' }, options);
  const stamp = path.join(dist, WEB_BUILD_STAMP);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, `${JSON.stringify({ mode: 'production' })}\n`);
}

/** The operator console's bundle (`vite.console.config.ts`), a production build as the web app's. */
export function buildConsole(dist = CONSOLE_DIST, options = {}) {
  buildWeb(dist, options, { script: 'build:console', label: 'build console' });
}

/** Newest modification time of the files `tsc -b` compiles under a folder (not the tests, which it leaves out). */
function newestSourceMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return target.endsWith('.test.ts') ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    if (['node_modules', 'dist', 'test'].includes(entry)) continue;
    newest = Math.max(newest, newestSourceMtime(path.join(target, entry)));
  }
  return newest;
}

/** True when the built server is missing, or a source of the contract or the server is newer than its last build. */
export function serverBuildIsStale() {
  if (!fs.existsSync(path.join(ROOT, 'apps/server/dist/cli/admin.js'))) return true;
  const base = newestSourceMtime(path.join(ROOT, 'tsconfig.base.json'));
  return ['packages/contract', 'apps/server'].some((project) => {
    const buildInfo = path.join(ROOT, project, 'tsconfig.tsbuildinfo');
    const builtAt = fs.existsSync(buildInfo) ? fs.statSync(buildInfo).mtimeMs : 0;
    const sources = [path.join(project, 'src'), path.join(project, 'tsconfig.json')];
    return Math.max(base, ...sources.map((source) => newestSourceMtime(path.join(ROOT, source)))) > builtAt;
  });
}

/** `tsc -b` of the contract and the server: incremental, quick when nothing changed. */
export function buildServer(options = {}) {
  run('build contract and server', 'npx', ['tsc', '-b', 'packages/contract', 'apps/server'], {}, options);
}

/** Builds the contract and the server, and the web app and the console when stale. */
export function build({ force = false } = {}) {
  buildServer();
  if (force || webBuildIsStale()) buildWeb();
  if (force || webBuildIsStale(CONSOLE_DIST, CONSOLE_SOURCES)) buildConsole();
}
