/**
 * Child process: the real app (`buildApp`) on 127.0.0.1, on the seeded database, with counters of what it reads:
 * every SQL statement sent to the driver (those naming the `users` table apart) and every call of
 * `SubscriptionService.usableUsers`, the query behind the nodes' user list. The parent asks for them over IPC.
 * The app is the server's build (`tsc -b`, as `npm start` runs it): tsx's transform of its sources names each function
 * it makes with an `Object.defineProperty`, a cost per request the shipped code does not have.
 */
import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../apps/server/dist/app.js';
// Its declaration of `app.subscriptions`, which the built app's own types do not bring in.
import type {} from '../apps/server/dist/modules/subscription/subscription.plugin.js';
import { loadConfig } from '../apps/server/dist/plugins/external/env.js';
import { type AppStats, BENCH_CAPTCHA_CODE, type ChildRequest } from './ipc.js';

const counters = { statements: 0, userStatements: 0, nodeStatements: 0, usableUsers: 0 };
const USERS_TABLE = /\busers\b/i;
const NODES_TABLE = /\bnodes\b/i;
/** Which tables each statement's text names, worked out once a text: the tests were 2–3 % of a feed fetch's CPU. */
const tablesNamed = new Map<string, { users: boolean; nodes: boolean }>();
const countStatement = (text: unknown) => {
  counters.statements++;
  if (typeof text !== 'string') return;
  let named = tablesNamed.get(text);
  if (!named) {
    named = { users: USERS_TABLE.test(text), nodes: NODES_TABLE.test(text) };
    // The app's statement texts are few; the map is bounded all the same, as a text may carry a list of values.
    if (tablesNamed.size < 1000) tablesNamed.set(text, named);
  }
  if (named.users) counters.userStatements++;
  if (named.nodes) counters.nodeStatements++;
};

// Counted at the drivers, below Kysely: nothing the app sends to the database gets past these. SQLite statements
// are counted when they run, not when prepared, as the app keeps its prepared statements.
const probe = new SQLite(':memory:');
const Statement = Object.getPrototypeOf(probe.prepare('select 1')) as SQLite.Statement;
probe.close();
for (const method of ['run', 'get', 'all', 'iterate'] as const) {
  const original = Statement[method] as (...args: unknown[]) => unknown;
  (Statement as unknown as Record<string, unknown>)[method] = function (this: SQLite.Statement, ...args: unknown[]) {
    countStatement(this.source);
    return original.apply(this, args);
  };
}
type Query = (this: pg.Client, ...args: unknown[]) => unknown;
const query = pg.Client.prototype.query as unknown as Query;
(pg.Client.prototype as unknown as { query: Query }).query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  countStatement(typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text);
  return query.apply(this, args);
};

const { BENCH_DATABASE_URL, BENCH_SEARCH_PATH, BENCH_DIR, BENCH_REDIS_URL, BENCH_REDIS_KEY_PREFIX } = process.env;
const config = loadConfig({
  // Not production: that refuses CAPTCHA_TEST_CODE, which the login load needs. Nothing else reads NODE_ENV.
  NODE_ENV: 'test',
  PAYMENT_SANDBOX: 'false',
  DATABASE_URL: BENCH_DATABASE_URL,
  LOG_LEVEL: 'warn',
  MAIL_OUTBOX_DIR: `${BENCH_DIR}/outbox`,
  // The feed's per-IP limit is keyed by X-Forwarded-For, as behind a reverse proxy; the load varies it.
  TRUST_PROXY: 'true',
  PUBLIC_URL: 'http://127.0.0.1:8080',
  CAPTCHA_TEST_CODE: BENCH_CAPTCHA_CODE,
  // The soak's `--redis`: the stores shared as by several instances, under keys of the run's own.
  ...(BENCH_REDIS_URL ? { REDIS_URL: BENCH_REDIS_URL } : {}),
});
const app = await buildApp({
  config,
  ...(BENCH_SEARCH_PATH ? { searchPath: BENCH_SEARCH_PATH } : {}),
  ...(BENCH_REDIS_KEY_PREFIX ? { redisKeyPrefix: BENCH_REDIS_KEY_PREFIX } : {}),
});

const usableUsers = app.subscriptions.usableUsers.bind(app.subscriptions);
app.subscriptions.usableUsers = () => {
  counters.usableUsers++;
  return usableUsers();
};

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;

const stats = (): AppStats => ({
  ...counters,
  cpu: process.cpuUsage(),
  memory: process.memoryUsage(),
  at: performance.now(),
});

process.on('message', async (message: ChildRequest) => {
  const reply = (body: unknown) => process.send?.({ id: message.id, body });
  try {
    if (message.type === 'stats') {
      if (message.collect) globalThis.gc?.();
      reply(stats());
    } else if (message.type === 'direct-push') {
      // The service call a push makes, without HTTP, JSON or validation: where the push's time goes.
      const entries = message.userIds.map((userId) => ({ userId, upload: 1000, download: 2000 }));
      const started = performance.now();
      await app.subscriptions.addTraffic(entries);
      reply({ ms: performance.now() - started });
    } else if (message.type === 'close') {
      await app.close();
      reply(null);
      process.disconnect();
      // Whatever else still holds the event loop, the process ends once the app has closed.
      setTimeout(() => process.exit(0), 200).unref();
    }
  } catch (error) {
    process.send?.({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
process.send?.({ type: 'ready', port });
