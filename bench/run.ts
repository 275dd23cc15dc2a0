/**
 * `npm run bench [-- --postgres] [--customers N] [--nodes N] [--seconds S] [--minutes M]`: the panel's capacity with
 * 100,000 customers and 100 nodes seeded (bench/README.md). The app runs as `npm start` runs it, in a process of its
 * own on 127.0.0.1; this process seeds its database and loads it over HTTP at a steady rate, then prints the capacity
 * table, PASS or MISS against each target. Timings are figures of one machine, never test assertions.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import {
  adminGetCustomer,
  adminGetCustomers,
  adminGetOrder,
  adminGetOrders,
  getCaptcha,
  getCurrencies,
  getNodes,
  getNotice,
  getOrders,
  getPackageStat,
  getPlans,
  getSubscribeUrl,
  login,
  SUBSCRIPTION_PATH_PREFIX,
} from '@mutenet/contract';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../apps/server/src/db/schema.js';
import { type Seeded, type SeededNode, seed, seedConsoleToken } from './seed.js';

// --- the load the targets are set at ------------------------------------------------------------------------------

/** The targets hold at this many times the real load of a panel of that size. */
const LOAD_FACTOR = 20;
/** Each node's agent pulls its config and its users, and pushes traffic, once a minute. */
const NODE_INTERVAL_S = 60;
/** Each customer's apps fetch the feed every 12 hours. */
const FEED_INTERVAL_S = 12 * 3600;
/** One customer API call a second per this many customers. */
const CUSTOMERS_PER_CALL_PER_S = 1000;
/** After an outage, every customer's apps fetch the feed again within 5 minutes. */
const BURST_WINDOW_S = 300;
/** Users in a node's push of one minute: the customers online on it (a fifth of all, over 100 nodes). */
const PUSH_USERS = 200;
/** The push compared with one SQL statement doing the same updates. */
const BIG_PUSH_USERS = 10_000;
const TARGETS = { mixedP99Ms: 50, burstP99Ms: 500, coldPullMs: 1000, pushTimesStatement: 2, consoleP99Ms: 200 };
/** Each console call this many times, one after another, as an operator's browser sends them. */
const CONSOLE_ROUNDS = 100;

const WARMUP_S = 5;
/** Each side's time under saturation in the ratios to the bare server (information only), in two turns. */
const RATIO_S = 2;
const RATIO_CONNECTIONS = 8;
const PUSH_ROUNDS = 5;
const REQUEST_TIMEOUT_MS = 10_000;
const NODE_API = '/api/v1/server/UniProxy';
/** What a browser sends with every call; long answers go compressed, as they do to the panel's customers. */
const BROWSER_ENCODINGS = 'gzip, deflate, br';

/** One visit to the panel, twenty calls as the web app makes them: the session check on every screen, and so on. */
const CUSTOMER_CALLS: Array<{
  name: string;
  method: 'GET' | 'POST';
  path: (orderNo: string) => string;
  times: number;
}> = [
  { name: 'session check', method: 'POST', path: () => login.path, times: 4 },
  { name: 'package stat', method: 'GET', path: () => getPackageStat.path, times: 3 },
  { name: 'nodes', method: 'GET', path: () => getNodes.path, times: 3 },
  { name: 'notice', method: 'GET', path: () => getNotice.path, times: 2 },
  { name: 'packages', method: 'GET', path: () => getPlans.path, times: 2 },
  { name: 'orders', method: 'GET', path: () => getOrders.path, times: 2 },
  { name: 'one order', method: 'GET', path: (no) => `${getOrders.path}?no=${no}`, times: 1 },
  { name: 'subscribe url', method: 'GET', path: () => getSubscribeUrl.path, times: 1 },
  { name: 'currencies', method: 'GET', path: () => getCurrencies.path, times: 1 },
  { name: 'captcha', method: 'GET', path: () => getCaptcha.path, times: 1 },
];
const VISIT = CUSTOMER_CALLS.flatMap((call) => Array.from({ length: call.times }, () => call));

/** The feed's clients, in turn: each gets its own format. */
const FEED_CLIENTS = [
  { name: 'feed, share links (v2rayNG)', userAgent: 'v2rayNG/1.9.5' },
  { name: 'feed, clash (Clash Verge)', userAgent: 'clash-verge/v2.2.0' },
  { name: 'feed, sing-box', userAgent: 'sing-box 1.11.0' },
];

// --- options -------------------------------------------------------------------------------------------------------

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const USAGE =
  'usage: npm run bench [-- --postgres] [--customers N] [--nodes N] [--seconds S] [--minutes M]\n' +
  '  --postgres: on TEST_DATABASE_URL (a postgres:// URL), in a schema of its own dropped at the end';

function wholeNumber(name: string, fallback: number, least: number): number {
  const raw = option(name);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < least) {
    console.error(`${name} must be a whole number from ${least}\n${USAGE}`);
    process.exit(2);
  }
  return value;
}

// --- requests ------------------------------------------------------------------------------------------------------

type Request = { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };
type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
/** A request and what makes its answer wrong (a text), else undefined. */
type Call = { name: string; request: Request; check: (answer: Answer) => string | undefined };

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function send(port: number, { method, path, headers, body }: Request): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path, headers, agent, timeout: REQUEST_TIMEOUT_MS },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts) }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}

const DECODERS: Record<string, (body: Buffer) => Buffer> = {
  gzip: gunzipSync,
  br: brotliDecompressSync,
  deflate: inflateSync,
};
const textOf = ({ headers, body }: Answer) =>
  (DECODERS[String(headers['content-encoding'])]?.(body) ?? body).toString('utf8');

const statusIn =
  (...expected: number[]) =>
  (answer: Answer) =>
    expected.includes(answer.status) ? undefined : `HTTP ${answer.status}: ${textOf(answer).slice(0, 160)}`;

/** A customer call answers 200, with the envelope's code 0 where it is JSON (the link alone is text). */
function customerOk(answer: Answer): string | undefined {
  const text = textOf(answer);
  if (answer.status !== 200) return `HTTP ${answer.status}: ${text.slice(0, 160)}`;
  if (!String(answer.headers['content-type']).startsWith('application/json')) return undefined;
  try {
    const { code } = JSON.parse(text) as { code?: unknown };
    return code === 0 ? undefined : `code ${String(code)}: ${text.slice(0, 160)}`;
  } catch {
    return `not JSON: ${text.slice(0, 160)}`;
  }
}

/** The client address of a customer (the app trusts X-Forwarded-For, as behind its reverse proxy). */
const addressOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

// --- the calls of the workload -------------------------------------------------------------------------------------

type Node = SeededNode & { etags: Record<string, string>; pushes: number };

/** Builds the calls; the cursors move on, so that each feed fetch is of a customer not fetched before. */
function workload(seeded: Seeded, nodes: Node[]) {
  const customers = seeded.customerIds.length;
  let feedCursor = 0;
  let visitCursor = 0;
  const nodeQuery = (node: Node) => `node_id=${node.id}&node_type=${node.protocol}&token=${node.token}`;
  const cursors = { config: 0, user: 0, push: 0 };
  const nextNode = (kind: keyof typeof cursors) => nodes[cursors[kind]++ % nodes.length]!;
  /** Requests a second: each of a node's three calls, the feed and the customer calls at 20 times the real load. */
  const rates = {
    nodeCall: (nodes.length * LOAD_FACTOR) / NODE_INTERVAL_S,
    feed: (customers * LOAD_FACTOR) / FEED_INTERVAL_S,
    customerCall: (customers * LOAD_FACTOR) / CUSTOMERS_PER_CALL_PER_S,
    burst: customers / BURST_WINDOW_S,
  };

  /** The agent keeps each answer's ETag and sends it with its next pull (`keepTag: false`: a pull of the whole). */
  const pull = (node: Node, what: 'config' | 'user', keepTag = true): Call => {
    const etag = keepTag ? node.etags[what] : undefined;
    return {
      name: `node ${what === 'user' ? 'users' : 'config'} pull${keepTag ? '' : ' (whole list, gzip)'}`,
      request: {
        method: 'GET',
        path: `${NODE_API}/${what}?${nodeQuery(node)}`,
        // Go's HTTP client asks for gzip by itself.
        headers: { 'accept-encoding': 'gzip', ...(etag ? { 'if-none-match': etag } : {}) },
      },
      check: (answer) => {
        if (answer.status === 200 && typeof answer.headers.etag === 'string') node.etags[what] = answer.headers.etag;
        return statusIn(200, 304)(answer);
      },
    };
  };

  /** The traffic of `users` customers: from the `from`-th, or a different slice at each of the node's pushes. */
  const push = (node: Node, users: number, from?: number): Call => {
    const start = from ?? (node.pushes++ * nodes.length + node.id) * users;
    const entries = Array.from({ length: users }, (_, i) => [
      seeded.customerIds[(start + i) % customers],
      [1000, 2000],
    ]);
    return {
      name: from === undefined ? 'node push' : `node push (${users.toLocaleString('en')} users)`,
      request: {
        method: 'POST',
        path: `${NODE_API}/push?${nodeQuery(node)}`,
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
        body: JSON.stringify(Object.fromEntries(entries)),
      },
      check: statusIn(200),
    };
  };

  const feed = (client = FEED_CLIENTS[feedCursor % FEED_CLIENTS.length]!): Call => {
    const customer = feedCursor++ % customers;
    return {
      name: client.name,
      request: {
        method: 'GET',
        path: `${SUBSCRIPTION_PATH_PREFIX}/${seeded.feedTokens[customer]}`,
        headers: { 'user-agent': client.userAgent, 'accept-encoding': 'gzip', 'x-forwarded-for': addressOf(customer) },
      },
      check: statusIn(200),
    };
  };

  /**
   * The calls of one customer's visit after another's, each customer's session in turn, from the customer's address.
   * `only`: that call alone, from a new address each time (the captcha's per-address limit is not what is measured).
   */
  const customerCall = (only?: (typeof CUSTOMER_CALLS)[number]): Call => {
    const n = visitCursor++;
    const call = only ?? VISIT[n % VISIT.length]!;
    const session = seeded.sessions[(only ? n : Math.floor(n / VISIT.length)) % seeded.sessions.length]!;
    const address = addressOf(only ? customers + (n % 1_000_000) : session.customer);
    return {
      name: call.name,
      request: {
        method: call.method,
        path: call.path(session.orderNo),
        headers: {
          authorization: session.token,
          'accept-encoding': BROWSER_ENCODINGS,
          'x-forwarded-for': address,
        },
      },
      check: customerOk,
    };
  };

  return {
    pull,
    push,
    feed,
    customerCall,
    nextNode,
    rates,
    /** The mixed load: each part at its rate. */
    mixed: (): Stream[] => [
      { rate: rates.nodeCall, next: () => pull(nextNode('config'), 'config') },
      { rate: rates.nodeCall, next: () => pull(nextNode('user'), 'user') },
      { rate: rates.nodeCall, next: () => push(nextNode('push'), Math.min(PUSH_USERS, customers)) },
      { rate: rates.feed, next: () => feed() },
      { rate: rates.customerCall, next: () => customerCall() },
    ],
    burst: (): Stream[] => [{ rate: rates.burst, next: () => feed() }],
  };
}

// --- a steady load -------------------------------------------------------------------------------------------------

type Stream = { rate: number; next: () => Call };
/** Latencies (ms) and failures of one call. */
type Tally = { times: number[]; errors: number; firstError?: string };
type Tallies = Map<string, Tally>;

const tallyOf = (tallies: Tallies, name: string) => {
  const tally = tallies.get(name) ?? { times: [], errors: 0 };
  tallies.set(name, tally);
  return tally;
};

/**
 * Sends each stream's requests at its rate, evenly spaced, whatever the answers take (an open load, as clients are):
 * a slow answer shows in its own latency and does not hold the next request back. Each latency runs from the request
 * to the end of its answer. `minute`: called at the end of each minute with that minute's figures.
 */
async function steady(
  port: number,
  streams: Stream[],
  seconds: number,
  minute?: (index: number, window: Tally) => void,
): Promise<Tallies> {
  const tallies: Tallies = new Map();
  let window: Tally = { times: [], errors: 0 };
  const inFlight = new Set<Promise<void>>();
  const sent = streams.map(() => 0);
  const started = performance.now();
  let minutes = 0;
  const fire = (call: Call) => {
    const begin = performance.now();
    const record = (error: string | undefined) => {
      const ms = performance.now() - begin;
      for (const tally of [tallyOf(tallies, call.name), window]) {
        tally.times.push(ms);
        if (error !== undefined) {
          tally.errors++;
          tally.firstError ??= error;
        }
      }
    };
    const done: Promise<void> = send(port, call.request)
      .then(
        (answer) => record(call.check(answer)),
        (error: Error) => record(error.message),
      )
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  };
  for (;;) {
    const elapsed = Math.min(seconds, (performance.now() - started) / 1000);
    streams.forEach((stream, i) => {
      const due = Math.floor(elapsed * stream.rate);
      while (sent[i]! < due) {
        sent[i]!++;
        fire(stream.next());
      }
    });
    if (minute && elapsed >= (minutes + 1) * 60) {
      minute(++minutes, window);
      window = { times: [], errors: 0 };
    }
    if (elapsed >= seconds) break;
    await sleep(2);
  }
  await Promise.all(inFlight);
  return tallies;
}

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

type Summary = { requests: number; p50: number; p99: number; max: number; errors: number; firstError?: string };
function summarize(tally: Tally): Summary {
  const sorted = Float64Array.from(tally.times).sort();
  return {
    requests: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    errors: tally.errors,
    ...(tally.firstError ? { firstError: tally.firstError } : {}),
  };
}
const overall = (tallies: Tallies): Tally => ({
  times: [...tallies.values()].flatMap((tally) => tally.times),
  errors: [...tallies.values()].reduce((sum, tally) => sum + tally.errors, 0),
});

// --- the app and the bare server, each a process of its own ------------------------------------------------------

type Server = { child: ChildProcess; port: number; output: string[] };

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const children = new Set<ChildProcess>();

/** Starts `args` under Node and waits until `readyPath` answers 200; returns it and the time that took. */
async function startServer(nodeArgs: string[], env: NodeJS.ProcessEnv, port: number, readyPath: string) {
  const started = performance.now();
  const child = spawn(process.execPath, nodeArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  // The last lines it wrote, shown when something fails.
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      output.push(...chunk.split('\n').filter(Boolean));
      output.splice(0, Math.max(0, output.length - 40));
    });
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer within 60 s:\n${output.join('\n')}`);
    const status = await send(port, { method: 'GET', path: readyPath, headers: {} }).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) break;
    await sleep(10);
  }
  return { server: { child, port, output } satisfies Server, ms: performance.now() - started };
}

async function stopServer({ child }: Server) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

const APP_ENTRY = path.resolve(import.meta.dirname, '../apps/server/dist/server.js');

/** The app as `npm start` runs it (its build), one process, on the database given. */
async function startApp(databaseUrl: string, dir: string, firstStart: boolean) {
  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    WEB_CONCURRENCY: '1',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    // The customers' and the feed's addresses come in X-Forwarded-For, as from the reverse proxy in front.
    TRUST_PROXY: 'true',
    MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
    // The first start, on the empty database, makes the tables and the demo catalogue the customers bought from.
    SEED_DEMO_CATALOG: firstStart ? 'true' : 'false',
  };
  return startServer([APP_ENTRY], env, port, '/healthz');
}

/**
 * The bare server (`--bare-server PORT`): a `node:http` server answering `/STATUS/BYTES` with that status and a
 * body of that many bytes, after reading the request's body; nothing else. What a call costs at least, to compare.
 */
function serveBare(port: number) {
  const bodies = new Map<number, Buffer>();
  const server = http.createServer((request, response) => {
    const [, status = '200', size = '0'] = (request.url ?? '').split('/');
    const bytes = Number(size);
    const body = bodies.get(bytes) ?? Buffer.alloc(bytes, 'x');
    bodies.set(bytes, body);
    request.resume();
    request.on('end', () => {
      if (status === '304') return response.writeHead(304).end();
      response.writeHead(Number(status), { 'content-type': 'application/json', 'content-length': bytes });
      response.end(body);
    });
  });
  server.keepAliveTimeout = 72_000;
  server.listen(port, '127.0.0.1');
}

async function startBare() {
  const port = await freePort();
  const nodeArgs = ['--import', 'tsx', import.meta.filename, '--bare-server', String(port)];
  return (await startServer(nodeArgs, { PATH: process.env.PATH ?? '' }, port, '/200/0')).server;
}

/** The app's resident memory now and at its peak, in bytes (the peak where /proc tells it). */
function memoryOf(pid: number): { rss: number; peak?: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  } catch {
    return { rss: Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024 };
  }
}

// --- the database --------------------------------------------------------------------------------------------------

type Place = { label: string; appUrl: string; dir: string; postgres?: { url: string; schema: string } };

async function withPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function preparePlace(postgres: boolean, dir: string): Promise<Place> {
  if (!postgres) return { label: 'SQLite', appUrl: `sqlite:${path.join(dir, 'bench.db')}`, dir };
  const url = process.env.TEST_DATABASE_URL;
  if (!url?.startsWith('postgres')) throw new Error(`--postgres needs TEST_DATABASE_URL set to a postgres:// URL`);
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  await withPostgres(url, (client) => client.query(`create schema ${schema}`));
  // The schema chosen in the URL, as an operator would.
  const options = `options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const appUrl = `${url}${url.includes('?') ? '&' : '?'}${options}`;
  return { label: 'PostgreSQL', appUrl, dir, postgres: { url, schema } };
}

function openDb(place: Place): Kysely<Database> {
  if (place.postgres) {
    return new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: place.appUrl, max: 2 }) }),
    });
  }
  const database = new SQLite(place.appUrl.slice('sqlite:'.length));
  database.pragma('busy_timeout = 5000');
  return new Kysely({ dialect: new SqliteDialect({ database }) });
}

/**
 * After the bulk load, what a live database has: on PostgreSQL its tables vacuumed and analyzed (as autovacuum keeps
 * them; some servers run without it), on SQLite its write-ahead log folded into the file.
 */
async function settle(db: Kysely<Database>, place: Place) {
  if (!place.postgres) {
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
    return;
  }
  const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables
    where schemaname = ${place.postgres.schema}`.execute(db);
  for (const { name } of rows) await sql`vacuum analyze ${sql.table(name)}`.execute(db);
}

async function databaseVersion(db: Kysely<Database>, place: Place): Promise<string> {
  const query = place.postgres
    ? sql<{ v: string }>`select current_setting('server_version') as v`
    : sql<{ v: string }>`select sqlite_version() as v`;
  return `${place.label} ${(await query.execute(db)).rows[0]?.v ?? '?'}`;
}

/**
 * The updates a push makes, as ONE statement: each pushed customer's running package (the first by start) found,
 * then its counters raised, joined by its primary key.
 */
function pushStatement(userIds: number[], now: number) {
  const values = userIds.map((id) => `(${id}, 1000, 2000)`).join(', ');
  return sql.raw(`with pushed(user_id, up, down) as (values ${values}),
  target as (
    select (
      select running.id from user_packages as running
      where running.user_id = pushed.user_id and running.ended_at is null
        and running.starts_at <= ${now} and running.ends_at > ${now}
      order by running.starts_at, running.id limit 1
    ) as id, up, down
    from pushed
  )
  update user_packages set
    upload_used = upload_used + target.up,
    download_used = download_used + target.down,
    traffic_used = traffic_used + target.up + target.down
  from target
  where user_packages.id = target.id`);
}

// --- the ratios to the bare server ---------------------------------------------------------------------------------

type Ratio = { name: string; bytes: number; status: number; app: number; bare: number; unexpected: number };

/**
 * `RATIO_CONNECTIONS` connections sending back to back for `seconds`: the answers, the time from the start to the last
 * one, and how many answers were not `status` (or none came).
 */
async function saturate(port: number, next: () => Request, status: number, seconds: number) {
  let answers = 0;
  let unexpected = 0;
  let last = 0;
  const started = performance.now();
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: RATIO_CONNECTIONS,
    duration: seconds,
    timeout: REQUEST_TIMEOUT_MS / 1000,
    requests: [
      {
        setupRequest: (request) => {
          const { method, path, headers, body } = next();
          return { ...request, method, path, headers, ...(body ? { body } : {}) };
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, answered: number) => {
    answers++;
    last = performance.now();
    if (answered !== status) unexpected++;
  });
  const result = await instance;
  return { answers, ms: last - started, unexpected: unexpected + result.errors + result.timeouts };
}

/**
 * Each call on the app and on the bare server, which answers the same status with a body of the same size to the same
 * requests; the two take turns, twice each, so that a change in the machine's load falls on both.
 */
async function ratios(app: Server, bare: Server, calls: Array<() => Call>): Promise<Ratio[]> {
  const rows: Ratio[] = [];
  for (const next of calls) {
    const probe = next();
    const answer = await send(app.port, probe.request);
    log(`ratio: ${probe.name}`);
    const barePath = `/${answer.status}/${answer.body.length}`;
    const sides = [
      { port: app.port, next: () => next().request, answers: 0, ms: 0 },
      { port: bare.port, next: () => ({ ...next().request, path: barePath }), answers: 0, ms: 0 },
    ];
    let unexpected = 0;
    for (let turn = 0; turn < 2; turn++) {
      for (const side of sides) {
        const measured = await saturate(side.port, side.next, answer.status, RATIO_S / 2);
        side.answers += measured.answers;
        side.ms += measured.ms;
        unexpected += measured.unexpected;
      }
    }
    const [ours, baseline] = sides.map((side) => side.answers / (side.ms / 1000)) as [number, number];
    rows.push({
      name: probe.name,
      bytes: answer.body.length,
      status: answer.status,
      app: ours,
      bare: baseline,
      unexpected,
    });
  }
  return rows;
}

// --- the run -------------------------------------------------------------------------------------------------------

function log(line: string) {
  console.error(`bench: ${line}`);
}
const since = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

type Results = {
  database: string;
  customers: number;
  nodes: number;
  seconds: number;
  rates: ReturnType<typeof workload>['rates'];
  mixed: Tallies;
  burst: Tallies;
  coldPull: { ms: number; users: number; error?: string };
  push: { users: number; pushMs: number; statementMs: number; error?: string };
  memory: { rss: number; peak?: number };
  start: { emptyMs: number; seededMs: number };
  ratios: Ratio[];
  minutes: string[];
  loadBefore: string;
  console: Tallies;
};

/** A soak's line for one minute of the mixed load, also logged as it comes. */
function minuteRow(index: number, window: Tally, app: Server): string {
  const figures = summarize(window);
  const row =
    `| ${index} | ${figures.requests.toLocaleString('en')} | ${ms(figures.p50)} | ${ms(figures.p99)} | ` +
    `${figures.errors} | ${mib(memoryOf(app.child.pid!).rss)} |`;
  log(`minute ${row}`);
  return row;
}

/** The whole user list, built from the database: its time and how many users it holds. */
async function firstPull(app: Server, call: Call): Promise<Results['coldPull']> {
  const started = performance.now();
  const answer = await send(app.port, call.request).catch((error: Error) => ({
    status: 0,
    headers: {},
    body: Buffer.from(error.message),
  }));
  const ms = performance.now() - started;
  if (answer.status !== 200) return { ms, users: 0, error: `HTTP ${answer.status}: ${textOf(answer).slice(0, 160)}` };
  return { ms, users: (JSON.parse(textOf(answer)) as { users: unknown[] }).users.length };
}

/**
 * A node's push of `BIG_PUSH_USERS` users' traffic and one statement making the same updates on the same database,
 * taking turns (the first of each untimed): the medians of `PUSH_ROUNDS`.
 */
async function pushAgainstStatement(
  app: Server,
  db: Kysely<Database>,
  work: ReturnType<typeof workload>,
  seeded: Seeded,
): Promise<Results['push']> {
  const users = Math.min(BIG_PUSH_USERS, seeded.customerIds.length);
  const node = seeded.nodes.find((each) => each.rate === 1) ?? seeded.nodes[0]!;
  const push = work.push({ ...node, etags: {}, pushes: 0 }, users, 0);
  const statement = pushStatement(seeded.customerIds.slice(0, users), Date.now());
  const pushTimes: number[] = [];
  const statementTimes: number[] = [];
  for (let round = 0; round <= PUSH_ROUNDS; round++) {
    let begin = performance.now();
    const error = await send(app.port, push.request).then(push.check, (failure: Error) => failure.message);
    if (error) return { users, pushMs: Number.NaN, statementMs: Number.NaN, error };
    if (round > 0) pushTimes.push(performance.now() - begin);
    begin = performance.now();
    await statement.execute(db);
    if (round > 0) statementTimes.push(performance.now() - begin);
  }
  const median = (times: number[]) =>
    percentile(
      times.sort((a, b) => a - b),
      50,
    );
  return { users, pushMs: median(pushTimes), statementMs: median(statementTimes) };
}

async function run(place: Place, options: { customers: number; nodes: number; seconds: number; soak: boolean }) {
  const { customers, seconds } = options;
  const loadBefore = os.loadavg()[0]!.toFixed(1);
  let started = performance.now();
  const first = await startApp(place.appUrl, place.dir, true);
  await stopServer(first.server);
  log(`the app made its tables and demo catalogue (first start ${(first.ms / 1000).toFixed(1)} s)`);

  const db = openDb(place);
  let app: Server | undefined;
  let bare: Server | undefined;
  try {
    started = performance.now();
    const seeded = await seed(db, options);
    const consoleToken = await seedConsoleToken(db);
    log(
      `seeded ${customers} customers, ${seeded.sessions.length} sessions, ${options.nodes} nodes in ${since(started)}`,
    );
    started = performance.now();
    await settle(db, place);
    log(`settled the database in ${since(started)}`);
    const database = await databaseVersion(db, place);

    const second = await startApp(place.appUrl, place.dir, false);
    app = second.server;
    log(`the app listens on 127.0.0.1:${app.port} (start-up ${(second.ms / 1000).toFixed(2)} s)`);
    const nodes: Node[] = seeded.nodes.map((node) => ({ ...node, etags: {}, pushes: 0 }));
    const work = workload(seeded, nodes);

    // 1. A node's first pull after the start; 2. the big push against one statement, on a quiet app.
    const coldPull = await firstPull(app, work.pull(nodes[0]!, 'user', false));
    log(`first pull of the user list: ${coldPull.users} users in ${coldPull.ms.toFixed(0)} ms`);
    const push = await pushAgainstStatement(app, db, work, seeded);
    log(`push of ${push.users} users ${push.pushMs.toFixed(0)} ms, one statement ${push.statementMs.toFixed(0)} ms`);

    // 3. The mixed load at twenty times the real one, after a warm-up.
    const { rates } = work;
    log(`warm-up: the mixed load for ${WARMUP_S} s`);
    await steady(app.port, work.mixed(), WARMUP_S);
    log(`mixed load: ${(3 * rates.nodeCall + rates.feed + rates.customerCall).toFixed(0)} req/s for ${seconds} s`);
    const minutes: string[] = [];
    const running = app;
    const mixed = await steady(
      app.port,
      work.mixed(),
      seconds,
      options.soak ? (index, window) => minutes.push(minuteRow(index, window, running)) : undefined,
    );

    // 4. The burst after an outage: every customer's feed within five minutes, or a slice of it.
    const burstSeconds = Math.min(seconds, BURST_WINDOW_S);
    log(`burst: ${rates.burst.toFixed(0)} feed fetches a second for ${burstSeconds} s`);
    const burst = await steady(app.port, work.burst(), burstSeconds);
    const memory = memoryOf(app.child.pid!);

    // 5. Each call against the bare server (information only).
    bare = await startBare();
    const ratioCalls: Array<() => Call> = [
      ...CUSTOMER_CALLS.map((call) => () => work.customerCall(call)),
      () => work.pull(work.nextNode('config'), 'config'),
      () => work.pull(work.nextNode('user'), 'user'),
      () => work.pull(work.nextNode('user'), 'user', false),
      () => work.push(work.nextNode('push'), Math.min(PUSH_USERS, customers)),
      ...FEED_CLIENTS.map((client) => () => work.feed(client)),
    ];
    const ratioRows = await ratios(app, bare, ratioCalls);

    // 6. The console's searches and lists, on the quiet app.
    log(`console: search and lists, ${CONSOLE_ROUNDS} calls each`);
    const consoleTallies = await consoleLists(app, consoleToken, seeded);

    const failed = [...mixed.values(), ...burst.values()].some((tally) => tally.errors > 0);
    if (failed || coldPull.error || push.error) log(`the app's last lines:\n${app.output.join('\n')}`);
    return {
      database,
      customers,
      nodes: options.nodes,
      seconds,
      rates,
      mixed,
      burst,
      coldPull,
      push,
      memory,
      start: { emptyMs: first.ms, seededMs: second.ms },
      ratios: ratioRows,
      minutes,
      loadBefore,
      console: consoleTallies,
    } satisfies Results;
  } finally {
    if (app) await stopServer(app);
    if (bare) await stopServer(bare);
    await db.destroy();
  }
}

// --- the console's search and lists -------------------------------------------------------------------------------

/**
 * The operator console's searches and lists over every customer and order, each call `CONSOLE_ROUNDS` times one
 * after another (operators are few; what matters is how long each waits), with an owner's API token.
 */
async function consoleLists(app: Server, token: string, seeded: Seeded): Promise<Tallies> {
  const get = (path: string) =>
    send(app.port, {
      method: 'GET',
      path: `/admin${path}`,
      headers: {
        authorization: `Bearer ${token}`,
        'accept-encoding': BROWSER_ENCODINGS,
      },
    });
  const ids = seeded.customerIds;
  const customerAt = (i: number) => ids[(i * 7919) % ids.length]!;
  const indexAt = (i: number) => (i * 7919) % ids.length;
  const firstOrders = JSON.parse(textOf(await get(adminGetOrders.path))) as { data: { next: string | null } };
  const calls: Array<[string, (i: number) => string]> = [
    ['customers, newest first', () => adminGetCustomers.path],
    ['customers, search by email', (i) => `${adminGetCustomers.path}?search=bench${indexAt(i)}%40example`],
    ['customers, search by part of a name', (i) => `${adminGetCustomers.path}?search=nch${indexAt(i)}`],
    ['customers, search by id', (i) => `${adminGetCustomers.path}?search=${customerAt(i)}`],
    ['customers, a search nobody matches', (i) => `${adminGetCustomers.path}?search=nobody${i}`],
    ['a customer’s page', (i) => adminGetCustomer.path.replace(':id', String(customerAt(i)))],
    ['orders, newest first', () => adminGetOrders.path],
    ['orders, next page', () => `${adminGetOrders.path}?cursor=${firstOrders.data.next ?? ''}`],
    ['orders by status', () => `${adminGetOrders.path}?status=timeout`],
    ['orders by currency and gateway', () => `${adminGetOrders.path}?currency=USD&gateway=sandbox`],
    ['orders in a date range', () => `${adminGetOrders.path}?from=${Date.now() - 30 * 86_400_000}&to=${Date.now()}`],
    ['orders of a customer', (i) => `${adminGetOrders.path}?userId=${customerAt(i)}`],
    ['an order’s page', (i) => adminGetOrder.path.replace(':no', seeded.sessions[i % seeded.sessions.length]!.orderNo)],
  ];
  const tallies: Tallies = new Map();
  for (const [name, path] of calls) {
    const tally = tallyOf(tallies, name);
    for (let i = 0; i < CONSOLE_ROUNDS; i++) {
      const started = performance.now();
      const answer = await get(path(i));
      tally.times.push(performance.now() - started);
      const text = textOf(answer);
      if (answer.status !== 200 || !text.startsWith('{"code":0')) {
        tally.errors++;
        tally.firstError ??= `HTTP ${answer.status}: ${text.slice(0, 160)}`;
      }
    }
  }
  return tallies;
}

// --- the report ----------------------------------------------------------------------------------------------------

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const ms = (value: number) => fixed(value, value < 10 ? 2 : value < 100 ? 1 : 0);
const mib = (bytes: number) => `${fixed(bytes / 1024 / 1024, 0)} MiB`;
const rate = (value: number) => (value < 100 ? fixed(value, 1) : Math.round(value).toLocaleString('en'));
const verdict = (met: boolean) => (met ? 'PASS' : '**MISS**');

/** The calls in the order the tables list them. */
const CALL_ORDER = [
  ...CUSTOMER_CALLS.map((call) => call.name),
  'node config pull',
  'node users pull',
  'node push',
  ...FEED_CLIENTS.map((client) => client.name),
];
const byCallOrder = (tallies: Tallies) =>
  [...tallies].sort(([a], [b]) => CALL_ORDER.indexOf(a) - CALL_ORDER.indexOf(b));

function callTable(tallies: Tallies, seconds: number): string[] {
  const lines = [
    '| call | req/s | requests | p50 ms | p99 ms | max ms | errors |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const errors: string[] = [];
  for (const [name, tally] of byCallOrder(tallies)) {
    const { requests, p50, p99, max, errors: failed, firstError } = summarize(tally);
    lines.push(
      `| ${name} | ${rate(requests / seconds)} | ${requests.toLocaleString('en')} | ${ms(p50)} | ${ms(p99)} | ` +
        `${ms(max)} | ${failed} |`,
    );
    if (firstError) errors.push(`- ${name}, first error: \`${firstError.replaceAll('`', "'")}\``);
  }
  return errors.length > 0 ? [...lines, '', ...errors] : lines;
}

function report(r: Results): string {
  const mixed = summarize(overall(r.mixed));
  const burst = summarize(overall(r.burst));
  const burstSeconds = Math.min(r.seconds, BURST_WINDOW_S);
  const mixedRate = 3 * r.rates.nodeCall + r.rates.feed + r.rates.customerCall;
  const pushTimes = r.push.pushMs / r.push.statementMs;
  const consoleWorst = [...r.console]
    .map(([name, tally]) => ({ name, ...summarize(tally) }))
    .sort((a, b) => b.p99 - a.p99)[0];
  const consoleErrors = summarize(overall(r.console)).errors;
  const cpu = os.cpus()[0]?.model ?? '?';
  const lines = [
    `### ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${r.database}`,
    '',
    `${r.customers.toLocaleString('en')} customers, ${r.nodes} nodes. Machine: ${os.availableParallelism()} cores ` +
      `(${cpu}), Node ${process.version}; load average ${r.loadBefore} at the start, ` +
      `${os.loadavg()[0]!.toFixed(1)} at the end (the app, the database and the load share the machine).`,
    '',
    '| target | measured | target | |',
    '| --- | --- | --- | --- |',
    `| mixed load, ${LOAD_FACTOR}× the real one (${rate(mixedRate)} req/s for ` +
      `${r.seconds} s) | p99 ${ms(mixed.p99)} ms, ${mixed.errors} errors in ${mixed.requests.toLocaleString('en')} | ` +
      `p99 ≤ ${TARGETS.mixedP99Ms} ms, no error | ${verdict(mixed.p99 <= TARGETS.mixedP99Ms && mixed.errors === 0)} |`,
    `| burst after an outage, every feed in ${BURST_WINDOW_S / 60} min (${rate(r.rates.burst)} req/s ` +
      `for ${burstSeconds} s${burstSeconds < BURST_WINDOW_S ? ', a slice' : ''}) | p99 ${ms(burst.p99)} ms, ` +
      `${burst.errors} errors in ${burst.requests.toLocaleString('en')} | p99 ≤ ${TARGETS.burstP99Ms} ms, no error | ` +
      `${verdict(burst.p99 <= TARGETS.burstP99Ms && burst.errors === 0)} |`,
    `| a node's full user list, first pull after the start | ${
      r.coldPull.error ?? `${ms(r.coldPull.ms)} ms, ${r.coldPull.users.toLocaleString('en')} users`
    } | < ${TARGETS.coldPullMs / 1000} s | ${verdict(!r.coldPull.error && r.coldPull.ms < TARGETS.coldPullMs)} |`,
    `| ${r.push.users.toLocaleString('en')}-user traffic push against one SQL statement (median of ${PUSH_ROUNDS}) | ${
      r.push.error ?? `${ms(r.push.pushMs)} ms against ${ms(r.push.statementMs)} ms, ${fixed(pushTimes, 2)}×`
    } | ≤ ${TARGETS.pushTimesStatement}× | ${verdict(!r.push.error && pushTimes <= TARGETS.pushTimesStatement)} |`,
    `| resident memory of the app after the loads | ${mib(r.memory.rss)}${
      r.memory.peak ? ` (peak ${mib(r.memory.peak)})` : ''
    } | printed | |`,
    `| the console's searches and lists, the slowest (${consoleWorst?.name ?? '—'}) | p99 ${ms(consoleWorst?.p99 ?? Number.NaN)} ms, ` +
      `${consoleErrors} errors | p99 ≤ ${TARGETS.consoleP99Ms} ms, no error | ` +
      `${verdict((consoleWorst?.p99 ?? Number.POSITIVE_INFINITY) <= TARGETS.consoleP99Ms && consoleErrors === 0)} |`,
    `| start-up, spawn to answering | ${fixed(r.start.seededMs / 1000, 2)} s (${fixed(r.start.emptyMs / 1000, 2)} s ` +
      'on the empty database, migrating) | printed | |',
    '',
    `Mixed load by call: nodes ${rate(3 * r.rates.nodeCall)} req/s (config, users and push each a third), feeds ` +
      `${rate(r.rates.feed)} req/s, customer calls ${rate(r.rates.customerCall)} req/s; after a ${WARMUP_S} s warm-up.`,
    '',
    ...callTable(r.mixed, r.seconds),
    '',
    'Burst by call:',
    '',
    ...callTable(r.burst, burstSeconds),
    '',
    `The console's searches and lists over ${r.customers.toLocaleString('en')} customers and their orders ` +
      `(${CONSOLE_ROUNDS} calls each, one at a time):`,
    '',
    '| call | p50 ms | p99 ms | max ms | errors |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...[...r.console].map(([name, tally]) => {
      const { p50, p99, max, errors, firstError } = summarize(tally);
      return `| ${name} | ${ms(p50)} | ${ms(p99)} | ${ms(max)} | ${errors}${firstError ? ` (${firstError})` : ''} |`;
    }),
  ];
  if (r.minutes.length > 0) {
    lines.push('', 'Mixed load by minute:', '', '| minute | requests | p50 ms | p99 ms | errors | resident memory |');
    lines.push('| ---: | ---: | ---: | ---: | ---: | ---: |', ...r.minutes);
  }
  lines.push(
    '',
    `Each call against a bare \`node:http\` server answering the same status and body size (information, no target; ` +
      `${RATIO_CONNECTIONS} connections for ${RATIO_S} s a side, in turns of ${RATIO_S / 2} s):`,
    '',
    '| call | answer | app req/s | bare req/s | app ÷ bare |',
    '| --- | --- | ---: | ---: | ---: |',
    ...r.ratios.map(
      (row) =>
        `| ${row.name} | ${row.status}, ${row.bytes.toLocaleString('en')} B | ${rate(row.app)} | ${rate(row.bare)} | ` +
        `${fixed(row.app / row.bare, 2)}${row.unexpected ? ` (${row.unexpected} other answers)` : ''} |`,
    ),
  );
  return lines.join('\n');
}

async function main() {
  const postgres = args.includes('--postgres');
  const minutes = option('--minutes') === undefined ? undefined : wholeNumber('--minutes', 10, 1);
  const options = {
    customers: wholeNumber('--customers', 100_000, 10),
    nodes: wholeNumber('--nodes', 100, 1),
    seconds: minutes ? minutes * 60 : wholeNumber('--seconds', 60, 1),
    soak: minutes !== undefined,
  };
  const began = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mutenet-bench-'));
  let place: Place | undefined;
  const cleanUp = async () => {
    for (const child of children) child.kill('SIGKILL');
    if (place?.postgres) {
      const { url, schema } = place.postgres;
      await withPostgres(url, (client) => client.query(`drop schema if exists ${schema} cascade`));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    console.error('\nbench: interrupted, cleaning up');
    cleanUp().finally(() => process.exit(130));
  });
  let exitCode = 0;
  try {
    place = await preparePlace(postgres, dir);
    const results = await run(place, options);
    console.log(`\n${report(results)}\n`);
    log(`done in ${since(began)}`);
  } catch (error) {
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    exitCode = 1;
  } finally {
    agent.destroy();
    await cleanUp().catch((error: unknown) => console.error(`bench: clean-up failed: ${String(error)}`));
  }
  process.exit(exitCode);
}

const barePort = option('--bare-server');
if (barePort) serveBare(Number(barePort));
else await main();
