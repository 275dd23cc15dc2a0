import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { startPrimary } from './cluster.js';
import { type Config, ConfigError, loadConfig } from './plugins/external/env.js';

/**
 * Starts the server: one process, or with `WEB_CONCURRENCY` above 1 a primary (`cluster.ts`) that supervises that
 * many workers, each one the whole app on the shared port.
 */
async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  if (config.workers > 1 && cluster.isPrimary) {
    await startPrimary(config);
    return;
  }
  // The primary seeded already: several workers would each find the catalogue empty.
  await serve(cluster.isWorker ? { ...config, seedDemoCatalog: false } : config);
}

/** Listens, and stops gracefully: no new connections, requests in flight finished, database closed. */
async function serve(config: Config) {
  const app = await buildApp({ config });
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void close('SIGTERM'));
  process.on('SIGINT', () => void close('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
