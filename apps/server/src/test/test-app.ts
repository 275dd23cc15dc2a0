import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../app.js';
import { loadConfig } from '../plugins/external/env.js';

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
 * of its own), with its mail in a temporary outbox and its log lines kept for inspection.
 */
export async function startTestApp({
  database = 'sqlite',
  env = {},
  redis = false,
  redisKeyPrefix = newRedisKeyPrefix(),
}: TestAppOptions = {}) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-test-'));
  const schema = database === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  if (schema) await withPostgres((client) => client.query(`create schema ${schema}`));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: schema ? POSTGRES_URL! : `sqlite:${path.join(dir, 'test.db')}`,
    MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
    CAPTCHA_TEST_CODE,
    TRUST_PROXY: 'true',
    WEB_DIST_DIR: path.join(dir, 'web'),
    ...(redis && REDIS_URL ? { REDIS_URL } : {}),
    ...env,
  });
  const clock = new TestClock();
  const logs: string[] = [];
  const app = await buildApp({
    config,
    now: clock.now,
    ...(schema ? { searchPath: schema } : {}),
    redisKeyPrefix,
    logger: { level: 'info', stream: { write: (line: string) => void logs.push(line) } },
  });
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
    async close() {
      if (app.redis) {
        // ioredis prefixes the keys of commands, but neither the KEYS pattern nor its reply.
        const keys = await app.redis.keys(`${redisKeyPrefix}*`);
        if (keys.length) await app.redis.del(...keys.map((key) => key.slice(redisKeyPrefix.length)));
      }
      await app.close();
      if (schema) await withPostgres((client) => client.query(`drop schema ${schema} cascade`));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
