import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTART_DELAY_MS } from '../cluster.js';
import { DEMO_CATALOG } from '../modules/catalog/demo-catalog.js';
import { freePort, type ServerProcess, spawnServer, until, whenHealthy } from '../test/server-process.js';
import { REDIS_URL } from '../test/test-app.js';

const STARTUP_MS = 30_000;

type LogLine = { pid: number; msg: string; req?: { url: string }; restartInMs?: number };

const linesOf = (server: ServerProcess): LogLine[] =>
  server.stdout
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

/** The pids of the processes that said they listen, in order. */
const listeners = (server: ServerProcess) =>
  linesOf(server)
    .filter((line) => line.msg.startsWith('Server listening'))
    .map((line) => line.pid);

/** A GET on a connection of its own: the primary hands each new connection to the next worker. */
function getOnNewConnection(url: string): Promise<number> {
  return getTextOnNewConnection(url).then(({ status }) => status);
}

function getTextOnNewConnection(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      })
      .on('error', reject);
  });
}

/** The health checks answered 200, as a scrape of `/metrics` (on a new connection, so by either worker) counts them. */
async function healthChecksCounted(base: string): Promise<number> {
  const { status, text } = await getTextOnNewConnection(`${base}/metrics`);
  expect(status).toBe(200);
  const line = text
    .split('\n')
    .find((each) => each.startsWith('mutenet_http_requests_total{method="GET",route="/healthz",status="200"}'));
  return Number(line?.split(' ').at(-1) ?? 0);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('WEB_CONCURRENCY worker processes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-workers-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const env = (name: string, extra: Record<string, string>) => ({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${path.join(dir, `${name}.db`)}`,
    MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
    WEB_DIST_DIR: path.join(dir, 'web'),
    LOG_LEVEL: 'info',
    ...extra,
  });

  it('refuses more than one worker without Redis, naming both variables, with exit 78', async () => {
    const server = spawnServer(dir, env('refused', { WEB_CONCURRENCY: '2', PORT: String(await freePort()) }));
    try {
      expect(await server.exited).toBe(78);
      const stderr = server.stderr.join('');
      expect(stderr).toContain('WEB_CONCURRENCY: must be 1 unless REDIS_URL is set');
      expect(server.stdout.join('')).not.toContain('Server listening');
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it.runIf(REDIS_URL)(
    'serves from two workers on one port, replaces one that dies, and stops them all on SIGTERM',
    async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // A fresh SQLite file: the primary migrates it and seeds the demo catalogue before the workers open it.
      const server = spawnServer(
        dir,
        env('workers', { WEB_CONCURRENCY: '2', PORT: String(port), REDIS_URL: REDIS_URL!, SEED_DEMO_CATALOG: 'true' }),
      );
      try {
        // Each worker loads the sources through tsx: slow on a busy machine.
        await whenHealthy(server, base, STARTUP_MS);
        const workers = await until(
          () => (listeners(server).length === 2 ? listeners(server) : undefined),
          'two workers',
          STARTUP_MS,
        );
        expect(new Set(workers).size).toBe(2);
        expect(workers).not.toContain(server.child.pid);
        const seeded = linesOf(server).filter(
          (line) => line.msg === 'seeded the demo catalogue into the empty database',
        );
        expect(seeded.map((line) => line.pid)).toEqual([server.child.pid]);
        const catalogue = new SQLite(path.join(dir, 'workers.db'), { readonly: true });
        try {
          expect(catalogue.prepare('select count(*) as n from plans').get()).toEqual({ n: DEMO_CATALOG.plans.length });
        } finally {
          catalogue.close();
        }

        const statuses = await Promise.all(Array.from({ length: 8 }, () => getOnNewConnection(`${base}/healthz`)));
        expect(statuses).toEqual(statuses.map(() => 200));
        const servedBy = await until(() => {
          const pids = new Set(
            linesOf(server)
              .filter((line) => line.msg === 'request completed')
              .map((line) => line.pid),
          );
          return pids.size === 2 ? pids : undefined;
        }, 'both workers to answer');
        expect([...servedBy].sort()).toEqual([...workers].sort());

        // Each worker counts its own requests; a scrape, whichever worker answers it, adds up both workers' counts.
        const counted = await healthChecksCounted(base);
        for (let round = 0; round < 3; round++) {
          await Promise.all(Array.from({ length: 5 }, () => getOnNewConnection(`${base}/healthz`)));
          expect(await healthChecksCounted(base)).toBe(counted + 5 * (round + 1));
        }

        // A worker killed outright is replaced after the restart delay, while the other one goes on serving.
        process.kill(workers[0]!, 'SIGKILL');
        const died = await until(
          () => linesOf(server).find((line) => line.msg === 'worker died; starting another'),
          'the primary to see the worker die',
        );
        expect(died).toMatchObject({ pid: server.child.pid, restartInMs: RESTART_DELAY_MS.first });
        expect(await getOnNewConnection(`${base}/healthz`)).toBe(200);
        const replacement = await until(() => listeners(server)[2], 'a replacement worker', STARTUP_MS);
        expect(workers).not.toContain(replacement);

        server.child.kill('SIGTERM');
        const code = await Promise.race([server.exited, sleep(12_000).then(() => 'still running')]);
        expect(code).toBe(0);
        for (const pid of [...workers, replacement]) expect(alive(pid), `worker ${pid}`).toBe(false);
        const shutdowns = linesOf(server).filter((line) => line.msg === 'shutting down');
        expect(shutdowns.map((line) => line.pid).sort()).toEqual([workers[1], replacement].sort());
      } finally {
        server.child.kill('SIGKILL');
      }
    },
    3 * STARTUP_MS,
  );
});
