import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { adminDatabase } from '../../../server/src/test/admin-cli.js';
import type { TestDatabase } from '../../../server/src/test/test-app.js';
import { appendTestLog, recordSecret, testLogFile } from '../../../server/src/test/test-log.js';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
export const CAPTCHA_TEST_CODE = 'e2e42';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The built server (`npm run build` first) as a real process on a random port, with a fresh SQLite database (or a
 * PostgreSQL schema of its own), its mail in an outbox of its own and the test captcha code on.
 */
export async function startServer(env: Record<string, string> = {}, { database = 'sqlite' as TestDatabase } = {}) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-e2e-'));
  const postgres = database === 'postgres' ? await adminDatabase('postgres') : undefined;
  const databaseUrl = postgres?.url ?? `sqlite:${path.join(dir, 'e2e.db')}`;
  const port = await freePort();
  const outboxDir = path.join(dir, 'outbox');
  // With a run log directory (for the leak scan, test-log.ts) the server logs at info into it; only its warnings and
  // errors still reach this output.
  const logFile = testLogFile('logs', 'e2e-server');
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'apps/server/dist/server.js')], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      MAIL_OUTBOX_DIR: outboxDir,
      CAPTCHA_TEST_CODE,
      LOG_LEVEL: logFile ? 'info' : 'warn',
      WEBSITE_URL: 'https://example.com/',
      APP_VERSION: '9.9.9-e2e',
      // A console built elsewhere than its default folder (several people building it at once on one machine).
      ...(process.env.CONSOLE_E2E_DIST ? { CONSOLE_DIST_DIR: process.env.CONSOLE_E2E_DIST } : {}),
      ...env,
    },
    stdio: ['ignore', logFile ? 'pipe' : 'inherit', logFile ? 'pipe' : 'inherit'],
  });
  for (const output of logFile ? [child.stdout!, child.stderr!] : []) {
    readline.createInterface({ input: output }).on('line', (line) => {
      appendTestLog(logFile, line);
      if (!/^\{"level":[1-3]\d,/.test(line)) process.stderr.write(`${line}\n`);
    });
  }
  const url = `http://127.0.0.1:${port}`;
  // A minute: the machines the tests run on are shared, and a loaded one starts the server slowly.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    dataDir: dir,
    database,
    databaseUrl,
    outboxDir,
    /** The 6-digit code of the newest mail to an address, waiting a little for it to arrive. */
    async latestCode(email: string): Promise<string> {
      for (let tries = 0; tries < 50; tries++) {
        const files = (await fs.readdir(outboxDir).catch(() => [] as string[])).sort().reverse();
        for (const file of files) {
          const mail = await fs.readFile(path.join(outboxDir, file), 'utf8');
          if (!mail.toLowerCase().includes(`to: ${email.toLowerCase()}`)) continue;
          const code = mail.match(/^\s+(\d{6})\s*$/m)?.[1];
          recordSecret('email code', code);
          if (code) return code;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no code mailed to ${email}`);
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await fs.rm(dir, { recursive: true, force: true });
      await postgres?.drop();
    },
  };
}

export type E2eServer = Awaited<ReturnType<typeof startServer>>;
