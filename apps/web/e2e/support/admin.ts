import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { appendTestLog, recordSecret, testLogFile } from '../../../server/src/test/test-log.js';
import type { E2eServer } from './server.js';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const adminLog = testLogFile('logs', 'e2e-admin');

/**
 * Runs the operator's command line (the built `admin.js`) on the e2e server's SQLite file, as an operator would on a
 * real install, and returns its `--json` answer. The server sees nodes it adds within its 5-second node cache.
 */
export function admin<T = unknown>(server: E2eServer, ...args: string[]): T {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'apps/server/dist/cli/admin.js'), ...args, '--json'], {
    cwd: server.dataDir,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: `sqlite:${path.join(server.dataDir, 'e2e.db')}`,
    },
    encoding: 'utf8',
  });
  // Its log lines, for the leak scan (test-log.ts); its output is the operator's, and may show a node's token.
  appendTestLog(adminLog, result.stderr);
  if (result.status !== 0) {
    throw new Error(`admin ${args.join(' ')} exited with ${result.status}: ${result.stderr || result.stdout}`);
  }
  return JSON.parse(result.stdout) as T;
}

/** A node added with `admin node add`: its id and the token its agent authenticates with. */
export type AddedNode = { id: number; token: string };

export function addNode(
  server: E2eServer,
  { name, mag, labels, host }: { name: string; mag: number; labels?: string; host: string },
): AddedNode {
  const args = ['node', 'add', '--name', name, '--type', 'trojan', '--host', host, '--port', '443'];
  args.push('--mag', String(mag));
  if (labels) args.push('--label', labels);
  const node = admin<AddedNode>(server, ...args);
  recordSecret('node token', node.token);
  return node;
}
