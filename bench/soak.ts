/**
 * `npm run soak [-- [--postgres] [--redis] [--instances N] [--minutes M] [--users N]]`: the app under a steady mixed
 * load at half of the capacity measured first, for 10 minutes by default, printing its memory and latency every
 * interval, so that a leak or a slow drift shows (see README, "Benchmarks"). Not part of `npm test`.
 *
 * The mix is what a live panel sees: customers' calls (session check, package stat, orders, one order, notice, nodes,
 * captcha), subscription feeds in the three formats, nodes pulling their user list (the 304) and pushing traffic.
 * With `--redis` the app's stores are in Redis, whose keys of the run are counted every interval (a key that never
 * expires would pile up); with `--instances N` (which needs `--redis`) N app processes on the one database and Redis,
 * each running the background work, share the load as behind a load balancer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../apps/server/src/db/database.js';
import { connectRedis, redisReady } from '../apps/server/src/plugins/app/store.js';
import { hasSwitch, option } from './arguments.js';
import { type AppStats, Child } from './ipc.js';
import { emptySamples, hammer, merge, type Plan, percentile, type Samples, send, type Target } from './load.js';
import { autovacuumIsOn, seed, vacuumTables } from './seed.js';

const POSTGRES = hasSwitch('--postgres');
const REDIS = hasSwitch('--redis');
const INSTANCES = Number(option('--instances') ?? 1);
const MINUTES = Number(option('--minutes') ?? 10);
const USERS = Number(option('--users') ?? 20_000);
const INTERVAL_SECONDS = Math.min(30, Math.max(5, (MINUTES * 60) / 20));
const CONNECTIONS = 10;
/** Users in each push: a node's share of the traffic reported every minute or so. */
const PUSH_USERS = 200;
/** How long the soak waits for Redis to answer at the start before it gives up. */
const REDIS_WAIT_MS = 5000;

if (
  !(MINUTES > 0) ||
  !(USERS >= PUSH_USERS) ||
  !Number.isInteger(INSTANCES) ||
  INSTANCES < 1 ||
  INSTANCES > 8 ||
  (INSTANCES > 1 && !REDIS)
) {
  console.error(
    `usage: npm run soak [-- --postgres] [--redis] [--instances N (1 to 8; above 1 needs --redis)] [--minutes M] ` +
      `[--users N ≥ ${PUSH_USERS}]`,
  );
  process.exit(2);
}

type Redis = ReturnType<typeof connectRedis>;

const log = (line: string) => console.error(`soak: ${line}`);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
/** One figure per instance: `212.3` for one, `212.3 / 208.9` for two. */
const perInstance = (values: number[], format: (value: number) => string) => values.map(format).join(' / ');

/**
 * The load on every instance at once, the connections and the rate shared among them; the samples merged, over the
 * longest instance's time (the instances ran side by side, not one after another).
 */
async function hammerAll(targets: Target[], plan: Plan): Promise<Samples> {
  const share: Plan = {
    ...plan,
    connections: Math.max(1, Math.round(plan.connections / targets.length)),
    ...(plan.rate ? { rate: Math.max(1, Math.round(plan.rate / targets.length)) } : {}),
  };
  const parts = await Promise.all(targets.map((target) => hammer(target, share)));
  const samples = parts.reduce(merge, emptySamples());
  samples.ms = Math.max(...parts.map((part) => part.ms));
  return samples;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mutenet-soak-'));
  const postgresUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (POSTGRES && !postgresUrl?.startsWith('postgres')) {
    throw new Error('--postgres needs TEST_DATABASE_URL or DATABASE_URL set to a postgres:// URL');
  }
  const schema = POSTGRES ? `soak_${process.pid}` : undefined;
  const url = POSTGRES ? postgresUrl! : `sqlite:${path.join(dir, 'soak.db')}`;
  const redisUrl = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
  if (REDIS && !/^rediss?:\/\//.test(redisUrl ?? '')) {
    throw new Error('--redis needs TEST_REDIS_URL or REDIS_URL set to a redis:// URL');
  }
  // The run's keys, apart from any other user of the same Redis; counted without the app's prefix option.
  const redisKeyPrefix = `mutenet-soak-${process.pid}:`;
  const redis = REDIS ? connectRedis(redisUrl!, '') : undefined;
  if (redis) {
    // Its failures surface as the calls' errors, and a start that never connects as the error below.
    redis.on('error', () => {});
    if (!(await redisReady(redis, REDIS_WAIT_MS))) {
      redis.disconnect();
      // Not the URL itself, which may hold a password.
      throw new Error(`Redis (TEST_REDIS_URL or REDIS_URL) could not be reached within ${REDIS_WAIT_MS / 1000} s`);
    }
  }
  const { db } = openDatabase(url, schema ? { searchPath: schema } : {});
  if (schema) await db.schema.createSchema(schema).execute();
  const apps: Child[] = [];
  try {
    const seeded = await seed(db, {
      users: USERS,
      nodes: 20,
      // The feeds are 3 requests in 14, taking the links in turn, and each link may be fetched 30 times a minute:
      // 5,000 links keep a mix of up to some 11,000 req/s under that limit.
      links: Math.min(USERS, 5000),
      sessions: 1000,
      publicUrl: 'http://127.0.0.1:8080',
      log,
    });
    // As in `npm run bench`: a live database has been vacuumed and analyzed. Where the server runs no autovacuum, the
    // soak vacuums during each interval, as autovacuum would: the pushes update the same rows again and again, and
    // without it their dead versions pile up and slow the run down by the minute (bench/RESULTS.md, "Soak").
    let vacuum: (() => Promise<unknown>) | undefined;
    if (POSTGRES) {
      await vacuumTables(db);
      if (!(await autovacuumIsOn(db))) {
        vacuum = () => vacuumTables(db);
        log('this PostgreSQL server runs without autovacuum: the soak vacuums the tables during each interval');
      }
    }
    for (let instance = 0; instance < INSTANCES; instance++) {
      apps.push(
        await Child.start(
          'app-server.ts',
          {
            BENCH_DATABASE_URL: url,
            BENCH_SEARCH_PATH: schema ?? '',
            BENCH_DIR: dir,
            ...(redis ? { BENCH_REDIS_URL: redisUrl!, BENCH_REDIS_KEY_PREFIX: redisKeyPrefix } : {}),
          },
          // The heap after a full collection each interval: heap used without it swings with when V8 collected last.
          ['--expose-gc'],
        ),
      );
    }
    log(
      `seeded ${USERS} users; the app listens on ${apps.map((app) => app.url).join(', ')}` +
        (redis ? `, its stores in Redis under ${redisKeyPrefix}` : ''),
    );

    const node = seeded.nodes.find((candidate) => candidate.rate === 1)!;
    const nodeQuery = `node_id=${node.id}&node_type=${node.protocol}&token=${node.token}`;
    const userList = await send({ url: apps[0]!.url, path: `/api/v1/server/UniProxy/user?${nodeQuery}` });
    const etag = userList.headers.etag as string;
    const pushBody = (n: number) =>
      JSON.stringify(
        Object.fromEntries(
          seeded.userIds
            .slice((n * PUSH_USERS) % (USERS - PUSH_USERS), ((n * PUSH_USERS) % (USERS - PUSH_USERS)) + PUSH_USERS)
            .map((id) => [id, [1000, 2000]]),
        ),
      );
    const ip = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    /** One request of the mix for the n-th request: a fixed rotation, so every interval gets the same mix. */
    const mix = (n: number): ReturnType<NonNullable<Target['vary']>> => {
      const session = seeded.sessions[n % seeded.sessions.length]!;
      const customer = { authorization: session.token, 'x-forwarded-for': ip(n) };
      // The feeds' own count (cases 8 to 10 of each 14), so that each link is fetched in turn: links taken by n
      // itself had every other one fetched twice as often.
      const feed = (flag: string) => {
        const feedNumber = Math.floor(n / 14) * 3 + (n % 14) - 8;
        return {
          path: `/sub/${seeded.feedTokens[feedNumber % seeded.feedTokens.length]}${flag}`,
          headers: { 'x-forwarded-for': ip(n) },
        };
      };
      switch (n % 14) {
        case 0:
          return { path: '/mutenet/login', method: 'POST', headers: customer };
        case 1:
          return { path: '/mutenet/user/package/stat', headers: customer };
        case 2:
          return { path: '/mutenet/user/orders', headers: customer };
        case 3:
          return { path: `/mutenet/user/orders?no=${session.orderNo}`, headers: customer };
        case 4:
          return { path: '/mutenet/notice', headers: customer };
        case 5:
          return { path: '/mutenet/user/nodes', headers: customer };
        case 6:
          return { path: '/mutenet/packages', headers: customer };
        case 7:
          return { path: '/mutenet/verify/code/img', headers: { 'x-forwarded-for': ip(n) } };
        case 8:
          return feed('');
        case 9:
          return feed('?flag=clash');
        case 10:
          return feed('?flag=sing-box');
        case 11:
        case 12:
          return { path: `/api/v1/server/UniProxy/user?${nodeQuery}`, headers: { 'if-none-match': etag } };
        default:
          return {
            path: `/api/v1/server/UniProxy/push?${nodeQuery}`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: pushBody(n),
          };
      }
    };
    // Each instance gets the whole mix, the same customers and links: what one changes, the others must see.
    const targets: Target[] = apps.map((app) => ({ url: app.url, vary: mix }));

    log('measuring capacity: the mix as fast as it goes for 10 s');
    await hammerAll(targets, { connections: CONNECTIONS, seconds: 2 });
    const capacity = await hammerAll(targets, { connections: CONNECTIONS, seconds: 10 });
    const capacityRps = capacity.times.length / (capacity.ms / 1000);
    const rate = Math.max(1, Math.floor(capacityRps / 2));
    log(`capacity ${Math.round(capacityRps)} req/s; soaking at ${rate} req/s for ${MINUTES} min`);

    const header =
      'minute | req/s | p50 ms | p99 ms | errors | non-2xx/304 | RSS MiB | heap live MiB | external MiB' +
      (redis ? ' | Redis keys (never expiring)' : '');
    console.log(`\n${header}\n${header.replace(/[^|]/g, '-')}`);
    const rows: Array<{ p50: number; p99: number; rss: number[]; heap: number[] }> = [];
    const began = performance.now();
    while (performance.now() - began < MINUTES * 60_000) {
      const seconds = Math.min(INTERVAL_SECONDS, (MINUTES * 60_000 - (performance.now() - began)) / 1000);
      if (seconds < 1) break;
      const [samples] = await Promise.all([
        hammerAll(targets, { connections: CONNECTIONS, seconds, rate }),
        vacuum?.(),
      ]);
      const stats = await Promise.all(apps.map((app) => app.ask<AppStats>({ type: 'stats', collect: true })));
      const sorted = samples.times.slice().sort((a, b) => a - b);
      const others = Object.entries(samples.statuses).filter(([status]) => !['200', '304'].includes(status));
      const otherCount = others.reduce((sum, [, count]) => sum + count, 0);
      // The count, and which statuses they were: `12 (429: 12)`.
      const failed = others.length
        ? `${otherCount} (${others.map(([status, count]) => `${status}: ${count}`).join(', ')})`
        : '0';
      const row = {
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        rss: stats.map((one) => one.memory.rss),
        heap: stats.map((one) => one.memory.heapUsed),
      };
      const keys = redis ? await countKeys(redis, redisKeyPrefix) : undefined;
      rows.push(row);
      console.log(
        [
          ((performance.now() - began) / 60_000).toFixed(1),
          Math.round(sorted.length / (samples.ms / 1000)),
          row.p50.toFixed(2),
          row.p99.toFixed(1),
          samples.errors,
          failed,
          perInstance(row.rss, mib),
          perInstance(row.heap, mib),
          perInstance(
            stats.map((one) => one.memory.external),
            mib,
          ),
          ...(keys ? [`${keys.all} (${keys.lasting})`] : []),
        ].join(' | '),
      );
    }
    // Flat means: the last quarter of the intervals against the first quarter (after the first, a warm-up).
    const quarter = Math.max(1, Math.floor(rows.length / 4));
    const mean = (list: typeof rows, pick: (row: (typeof rows)[number]) => number) =>
      list.reduce((sum, row) => sum + pick(row), 0) / list.length;
    /** Each instance's mean over the rows, in MiB. */
    const means = (list: typeof rows, pick: (row: (typeof rows)[number]) => number[]) =>
      perInstance(
        apps.map((_, instance) => mean(list, (row) => pick(row)[instance]!)),
        mib,
      );
    const early = rows.slice(1, 1 + quarter);
    const late = rows.slice(-quarter);
    if (early.length && late.length) {
      console.log(
        `\nlast quarter against the first: RSS ${means(early, (r) => r.rss)} → ${means(late, (r) => r.rss)} MiB, ` +
          `heap live ${means(early, (r) => r.heap)} → ${means(late, (r) => r.heap)} MiB, ` +
          `p50 ${mean(early, (r) => r.p50).toFixed(2)} → ${mean(late, (r) => r.p50).toFixed(2)} ms, ` +
          `p99 ${mean(early, (r) => r.p99).toFixed(1)} → ${mean(late, (r) => r.p99).toFixed(1)} ms`,
      );
    }
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
    if (redis) {
      await forEachKeys(redis, redisKeyPrefix, (keys) => redis.unlink(...keys));
      await redis.quit();
    }
    if (schema) await db.schema.dropSchema(schema).cascade().execute();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Calls `visit` with each batch of the keys under `prefix`, as SCAN finds them (never KEYS, which blocks Redis). */
async function forEachKeys(redis: Redis, prefix: string, visit: (keys: string[]) => Promise<unknown>) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await visit(keys);
  } while (cursor !== '0');
}

/** The run's keys in Redis, and how many of them have no expiry. */
async function countKeys(redis: Redis, prefix: string): Promise<{ all: number; lasting: number }> {
  const count = { all: 0, lasting: 0 };
  await forEachKeys(redis, prefix, async (keys) => {
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.pttl(key);
    const ttls = (await pipeline.exec()) ?? [];
    count.all += keys.length;
    // PTTL answers -1 for a key without an expiry (and -2 for one gone since SCAN found it).
    count.lasting += ttls.filter(([, ttl]) => ttl === -1).length;
  });
  return count;
}

try {
  await main();
} catch (error) {
  console.error(`soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
}
