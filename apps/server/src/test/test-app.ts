import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.js';
import { loadConfig } from '../plugins/external/env.js';
import { appendTestLog, recordSecret, testLogFile } from './test-log.js';

/** The databases every repository-touching suite runs on: SQLite always, PostgreSQL where CI provides one. */
export type TestDatabase = 'sqlite' | 'postgres';
export const POSTGRES_URL = process.env.TEST_DATABASE_URL;
export const REDIS_URL = process.env.TEST_REDIS_URL;
export const DATABASES: TestDatabase[] = POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const CAPTCHA_TEST_CODE = 'pass42';

/** A clock the test moves by hand: the app's rules and its in-memory store both read it. */
export class TestClock {
  #offset = 0;
  now = () => Date.now() + this.#offset;
  advance(ms: number) {
    this.#offset += ms;
  }
}

export type TestAppOptions = {
  database?: TestDatabase;
  env?: Record<string, string>;
  redis?: boolean;
  /** Redis key prefix; apps given the same one share their captchas, codes and rate-limit counters. */
  redisKeyPrefix?: string;
  /**
   * Runs as another instance of that app's installation: on its database (the same SQLite file or PostgreSQL
   * schema), Redis key prefix, outbox and clock. The app joined cleans them up, so it is closed last.
   */
  joining?: { installation: Installation };
  /** Runs on the built app before it listens (and so before it is ready): a test's own hooks. */
  beforeListen?: (app: FastifyInstance) => void;
};

/** What the instances of one installation share. */
export type Installation = {
  database: TestDatabase;
  dir: string;
  schema: string | undefined;
  redisKeyPrefix: string;
  clock: TestClock;
};

/** A Redis key prefix of its own, so that a test run never sees another's keys. */
export function newRedisKeyPrefix(): string {
  return `test:${randomBytes(6).toString('hex')}:`;
}

/** A short-lived connection to the test PostgreSQL, for making and dropping schemas. */
export async function withPostgres<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The whole server on a random loopback port, on a fresh database (a temporary SQLite file, or a PostgreSQL schema
 * of its own) or on the one of the app it joins, with its mail in a temporary outbox and its log lines kept for
 * inspection.
 */
export async function startTestApp({
  database = 'sqlite',
  env = {},
  redis = false,
  redisKeyPrefix = newRedisKeyPrefix(),
  joining,
  beforeListen,
}: TestAppOptions = {}) {
  const installation = joining?.installation ?? (await newInstallation(database, redisKeyPrefix));
  const { dir, schema, clock } = installation;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: schema ? POSTGRES_URL! : `sqlite:${path.join(dir, 'test.db')}`,
    MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
    CAPTCHA_TEST_CODE,
    TRUST_PROXY: 'true',
    WEB_DIST_DIR: path.join(dir, 'web'),
    CONSOLE_DIST_DIR: path.join(dir, 'console'),
    ...(redis && REDIS_URL ? { REDIS_URL } : {}),
    ...env,
  });
  recordSecret('payment sandbox secret', config.payments.sandboxSecret);
  const { stripe, mercadopago, btcpay } = config.payments;
  for (const secret of [
    stripe?.secretKey,
    stripe?.webhookSecret,
    ...(mercadopago?.accounts ?? []).flatMap((account) => [account.accessToken, account.webhookSecret]),
    btcpay?.apiKey,
    btcpay?.webhookSecret,
  ]) {
    recordSecret('payment gateway secret', secret);
  }
  recordSecret('metrics token', config.metricsToken);
  const logs: string[] = [];
  // Also appended to the run's log directory, when there is one, for the leak scan (test-log.ts).
  const logFile = testLogFile('logs', 'test-app');
  const app = await buildApp({
    config,
    now: clock.now,
    ...(schema ? { searchPath: schema } : {}),
    redisKeyPrefix: installation.redisKeyPrefix,
    logger: {
      level: 'info',
      stream: {
        write: (line: string) => {
          logs.push(line);
          appendTestLog(logFile, line);
        },
      },
    },
  });
  beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    app,
    url,
    clock,
    logs,
    config,
    outboxDir: config.mailOutboxDir,
    installation,
    async close() {
      if (joining) {
        await app.close();
        return;
      }
      if (app.redis) {
        // ioredis prefixes the keys of commands, but neither the KEYS pattern nor its reply.
        const prefix = installation.redisKeyPrefix;
        const keys = await app.redis.keys(`${prefix}*`);
        if (keys.length) await app.redis.del(...keys.map((key) => key.slice(prefix.length)));
      }
      await app.close();
      if (schema) await withPostgres((client) => client.query(`drop schema ${schema} cascade`));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

async function newInstallation(database: TestDatabase, redisKeyPrefix: string): Promise<Installation> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-test-'));
  const schema = database === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  if (schema) await withPostgres((client) => client.query(`create schema ${schema}`));
  return { database, dir, schema, redisKeyPrefix, clock: new TestClock() };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
