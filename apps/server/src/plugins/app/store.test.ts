import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, TestClock } from '../../test/test-app.js';
import { connectRedis, MemoryStore, RedisStore, type Store } from './store.js';

/** A store, its clock and a way to let time pass: the memory store reads a clock the test moves; Redis really waits. */
type Subject = { store: Store; now(): number; pass(ms: number): Promise<void>; close(): Promise<void> };

const SUBJECTS: [string, () => Promise<Subject>][] = [
  [
    'MemoryStore',
    async () => {
      const clock = new TestClock();
      const store = new MemoryStore(clock.now);
      return { store, now: clock.now, pass: async (ms) => clock.advance(ms), close: () => store.close() };
    },
  ],
];

const redisUrl = REDIS_URL;
if (redisUrl) {
  SUBJECTS.push([
    'RedisStore',
    async () => {
      const prefix = `test:store:${randomBytes(6).toString('hex')}:`;
      const redis = connectRedis(redisUrl, prefix);
      // The offline queue is off on purpose (calls fail fast while Redis is away), so wait for the connection.
      if (redis.status !== 'ready') await once(redis, 'ready');
      const store = new RedisStore(redis);
      return {
        store,
        now: () => Date.now(),
        pass: (ms) => sleep(ms),
        async close() {
          // KEYS matches and answers the full key; commands add the prefix themselves.
          const keys = await redis.keys(`${prefix}*`);
          if (keys.length) await redis.del(...keys.map((key) => key.slice(prefix.length)));
          await store.close();
        },
      };
    },
  ]);
}

// Short enough that Redis's real expiry keeps the suite fast, long enough that a call stalled on a loaded machine
// (CI's, with the web tests beside, once took over 150 ms for 22 increments) does not outlive it.
const TTL = 500;

describe.each(SUBJECTS)('%s', (_name, open) => {
  let subject: Subject;
  let seq = 0;
  const key = () => `k${++seq}:${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    subject = await open();
  });
  afterAll(async () => {
    await subject?.close();
  });

  it('gets what was set, and nothing for a key never set', async () => {
    const { store } = subject;
    const k = key();
    expect(await store.get(k)).toBeNull();
    await store.set(k, 'value', 60_000);
    expect(await store.get(k)).toBe('value');
    await store.set(k, 'other', 60_000);
    expect(await store.get(k)).toBe('other');
  });

  it('gets several keys at once, in order, missing and expired ones as null', async () => {
    const { store, pass } = subject;
    const [a, b, gone, never] = [key(), key(), key(), key()];
    await store.set(a, 'A', 60_000);
    await store.set(b, 'B', 60_000);
    await store.set(gone, 'G', TTL);
    await pass(TTL + 100);
    expect(await store.getMany([b, never, a, gone])).toEqual(['B', null, 'A', null]);
    expect(await store.getMany([])).toEqual([]);
  });

  it('keeps any string as it is', async () => {
    const { store } = subject;
    const k = `${key()}:\u0000:😀:' OR 1=1 --`;
    const value = `<script>\u202E\u0000${'x'.repeat(10_000)}`;
    await store.set(k, value, 60_000);
    expect(await store.get(k)).toBe(value);
    expect(await store.take(k)).toBe(value);
  });

  it('forgets a value when its time is up', async () => {
    const { store, pass } = subject;
    const k = key();
    await store.set(k, 'v', TTL);
    expect(await store.get(k)).toBe('v');
    await pass(TTL + 50);
    expect(await store.get(k)).toBeNull();
    expect(await store.take(k)).toBeNull();
  });

  it('sets if absent only, and again once the old value expired', async () => {
    const { store, pass } = subject;
    const k = key();
    expect(await store.setIfAbsent(k, 'first', TTL)).toBe(true);
    expect(await store.setIfAbsent(k, 'second', TTL)).toBe(false);
    expect(await store.get(k)).toBe('first');
    await pass(TTL + 50);
    expect(await store.setIfAbsent(k, 'third', 60_000)).toBe(true);
    expect(await store.get(k)).toBe('third');
  });

  it('takes a value once: of 50 parallel takes exactly one gets it', async () => {
    const { store } = subject;
    const k = key();
    await store.set(k, 'prize', 60_000);
    const results = await Promise.all(Array.from({ length: 50 }, () => store.take(k)));
    expect(results.filter((value) => value === 'prize')).toHaveLength(1);
    expect(results.filter((value) => value === null)).toHaveLength(49);
    expect(await store.get(k)).toBeNull();
  });

  it('counts, in parallel too, within a window that starts at the first increment', async () => {
    const { store, now, pass } = subject;
    const k = key();
    // Room for 23 increments and a pause of TTL; its end is timed from the first increment.
    const window = TTL * 3;
    expect(await store.increment(k, window)).toBe(1);
    const opened = now();
    expect(await store.increment(k, window)).toBe(2);
    const counts = await Promise.all(Array.from({ length: 20 }, () => store.increment(k, window)));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 3));
    // A later increment does not push the window back: pushed, it would end at least TTL after the first one's end.
    await pass(TTL);
    expect(await store.increment(k, window)).toBe(23);
    await pass(Math.max(0, opened + window + 50 - now()));
    expect(await store.get(k)).toBeNull();
    expect(await store.increment(k, window)).toBe(1);
  });

  it('deletes, and deleting a missing key is harmless', async () => {
    const { store } = subject;
    const k = key();
    await store.set(k, 'v', 60_000);
    await store.delete(k);
    expect(await store.get(k)).toBeNull();
    await expect(store.delete(k)).resolves.toBeUndefined();
    expect(await store.setIfAbsent(k, 'again', 60_000)).toBe(true);
  });

  it('keeps keys apart', async () => {
    const { store } = subject;
    const [a, b] = [key(), key()];
    await store.set(a, 'a', 60_000);
    await store.increment(b, 60_000);
    expect(await store.get(a)).toBe('a');
    expect(await store.get(b)).toBe('1');
    await store.delete(a);
    expect(await store.get(b)).toBe('1');
  });
});
