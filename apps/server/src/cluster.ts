import cluster, { type Worker } from 'node:cluster';
import type { Kysely } from 'kysely';
import { type Logger, pino } from 'pino';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createCatalogService } from './modules/catalog/catalog.service.js';
import { answerClusterMetrics } from './plugins/app/metrics.js';
import type { Config } from './plugins/external/env.js';

/**
 * A worker that died after a healthy run is started again after the first delay; one that keeps dying soon after
 * its start waits twice as long each time, up to the maximum, so that a broken start does not spin.
 */
export const RESTART_DELAY_MS = { first: 1000, max: 30_000 };
/** A worker that ran this long was healthy. */
const HEALTHY_AFTER_MS = 60_000;
/** Workers finish their requests in flight within their own 10 seconds; after this they are killed. */
const SHUTDOWN_TIMEOUT_MS = 15_000;

/**
 * The primary process of `WEB_CONCURRENCY` workers: migrates the database (and seeds the demo catalogue) once, then
 * forks the workers. In a single process the db and catalog plugins do both as the app starts; here every worker
 * would, at once, and SQLite's migrations (which take no lock across processes) and the seeding (which checks that
 * the catalogue is empty, then fills it) must not run in several processes at the same time. The workers' own
 * migration then finds nothing to do, and they do not seed.
 */
export async function startPrimary(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel });
  const { db } = openDatabase(config.databaseUrl, { poolSize: 1 });
  try {
    await migrateToLatest(db as Kysely<unknown>);
    if (config.seedDemoCatalog && (await createCatalogService(db, Date.now).seedDemo())) {
      log.info('seeded the demo catalogue into the empty database');
    }
  } finally {
    await db.destroy();
  }
  superviseWorkers(config.workers, log);
}

type Slot = { worker?: Worker; startedAt: number; quickDeaths: number; restart?: NodeJS.Timeout };

/**
 * Runs in the primary process: forks `count` workers that serve on the one port (the primary hands out the
 * connections), restarts a worker that dies unexpectedly after a growing delay, and on SIGTERM or SIGINT stops them
 * all gracefully, exiting 0 when every worker did.
 */
function superviseWorkers(count: number, log: Logger): void {
  const slots: Slot[] = Array.from({ length: count }, () => ({ startedAt: 0, quickDeaths: 0 }));
  let stopping = false;
  let failed = false;

  const start = (slot: Slot) => {
    const worker = cluster.fork();
    slot.worker = worker;
    slot.startedAt = Date.now();
    worker.on('exit', (code, signal) => {
      slot.worker = undefined;
      if (stopping) {
        // A worker still starting has no handler yet and ends by the signal itself, with nothing in flight.
        if (code !== 0 && signal !== 'SIGTERM') failed = true;
        if (slots.every((each) => !each.worker)) process.exit(failed ? 1 : 0);
        return;
      }
      if (Date.now() - slot.startedAt >= HEALTHY_AFTER_MS) slot.quickDeaths = 0;
      const delayMs = Math.min(RESTART_DELAY_MS.first * 2 ** slot.quickDeaths, RESTART_DELAY_MS.max);
      slot.quickDeaths += 1;
      log.error({ worker: worker.process.pid, code, signal, restartInMs: delayMs }, 'worker died; starting another');
      slot.restart = setTimeout(() => start(slot), delayMs);
    });
  };

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down the workers');
    for (const slot of slots) {
      clearTimeout(slot.restart);
      slot.worker?.process.kill('SIGTERM');
    }
    if (slots.every((slot) => !slot.worker)) process.exit(0);
    setTimeout(() => {
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
  };

  answerClusterMetrics();
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (const slot of slots) start(slot);
  log.info({ workers: count }, 'started the workers');
}
