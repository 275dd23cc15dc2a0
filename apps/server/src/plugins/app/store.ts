import { once } from 'node:events';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

/**
 * Short-lived shared state (captchas, email codes, counters). In memory for a single instance; in Redis when
 * `REDIS_URL` is set, so that every instance behind a load balancer sees the same values.
 */
export interface Store {
  get(key: string): Promise<string | null>;
  /** Several keys in one round trip, in order. */
  getMany(keys: string[]): Promise<Array<string | null>>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets only when the key is absent; true when it was set. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Reads and deletes in one step, so that two callers can never both take the same value. */
  take(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;
  /** Adds one and returns the new count; the key expires `ttlMs` after its first increment. */
  increment(key: string, ttlMs: number): Promise<number>;
  close(): Promise<void>;
}

type Entry = { value: string; expiresAt: number };

export class MemoryStore implements Store {
  readonly #entries = new Map<string, Entry>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.#sweeper = setInterval(() => this.#sweep(), 60_000).unref();
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #sweep() {
    const now = this.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }

  async get(key: string) {
    return this.#live(key)?.value ?? null;
  }
  async getMany(keys: string[]) {
    return keys.map((key) => this.#live(key)?.value ?? null);
  }
  async set(key: string, value: string, ttlMs: number) {
    this.#entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    if (this.#live(key)) return false;
    this.#entries.set(key, { value, expiresAt: this.now() + ttlMs });
    return true;
  }
  async take(key: string) {
    const entry = this.#live(key);
    this.#entries.delete(key);
    return entry?.value ?? null;
  }
  async delete(key: string) {
    this.#entries.delete(key);
  }
  async increment(key: string, ttlMs: number) {
    const entry = this.#live(key);
    if (!entry) {
      this.#entries.set(key, { value: '1', expiresAt: this.now() + ttlMs });
      return 1;
    }
    const count = Number(entry.value) + 1;
    entry.value = String(count);
    return count;
  }
  async close() {
    clearInterval(this.#sweeper);
    this.#entries.clear();
  }
}

export class RedisStore implements Store {
  constructor(readonly redis: Redis) {}

  async get(key: string) {
    return this.redis.get(key);
  }
  async getMany(keys: string[]) {
    return keys.length ? this.redis.mget(keys) : [];
  }
  async set(key: string, value: string, ttlMs: number) {
    await this.redis.set(key, value, 'PX', ttlMs);
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    return (await this.redis.set(key, value, 'PX', ttlMs, 'NX')) === 'OK';
  }
  async take(key: string) {
    return this.redis.getdel(key);
  }
  async delete(key: string) {
    await this.redis.del(key);
  }
  async increment(key: string, ttlMs: number) {
    const result = await this.redis.multi().incr(key).pexpire(key, ttlMs, 'NX').exec();
    const [error, count] = result?.[0] ?? [new Error('no reply')];
    if (error) throw error;
    return Number(count);
  }
  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Every key of this installation in a shared Redis starts with this. */
export const REDIS_KEY_PREFIX = 'mutenet:';

export function connectRedis(url: string, keyPrefix = REDIS_KEY_PREFIX): Redis {
  return new Redis(url, {
    keyPrefix,
    // Fail fast while Redis is away instead of queueing requests until a client times out.
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 3000,
    // A host lost behind a firewall never resets the connection: a call that gets no reply fails, and a connection
    // that stays silent is dropped and made again, so that service resumes by itself once Redis answers.
    commandTimeout: 1000,
    socketTimeout: 2000,
    lazyConnect: false,
  });
}

/**
 * Waits for a connection to be ready: true once it is, false on its first error or at the end of the wait. With no
 * offline queue, a call made before the first connection fails at once.
 */
export async function redisReady(redis: Redis, waitMs: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  // `once` settles on the first of: ready, an error (it rejects), the end of the wait.
  return once(redis, 'ready', { signal: AbortSignal.timeout(waitMs) }).then(
    () => true,
    () => false,
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    redis: Redis | undefined;
  }
}

const REDIS_START_WAIT_MS = 5000;

export type StoreOptions = { redisUrl?: string | undefined; redisKeyPrefix?: string; now?: () => number };

export default fp<StoreOptions>(
  async (fastify, { redisUrl, redisKeyPrefix = REDIS_KEY_PREFIX, now = Date.now }) => {
    const redis = redisUrl ? connectRedis(redisUrl, redisKeyPrefix) : undefined;
    // A connection error is retried by ioredis; calls made meanwhile fail and answer 503.
    redis?.on('error', (error) => fastify.log.warn({ err: error.message }, 'redis connection error'));
    // Without this wait the first requests after a start answered 503. A Redis that is down does not hold the start
    // up, as calls then answer 503 anyway.
    if (redis && !(await redisReady(redis, REDIS_START_WAIT_MS))) {
      fastify.log.warn('redis is not reachable yet: calls that need it answer 503 until it is');
    }
    const store: Store = redis ? new RedisStore(redis) : new MemoryStore(now);
    fastify.decorate('store', store);
    fastify.decorate('redis', redis);
    fastify.addHook('onClose', async () => store.close());
  },
  { name: 'store' },
);
