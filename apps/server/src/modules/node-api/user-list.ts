import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { type MaybePromise, thenMaybe } from '../../lib/maybe-promise.js';
import type { SubscriptionService } from '../subscription/subscription.service.js';

/** However quiet the writes, a cached list is rebuilt at least this often (operator changes without Redis). */
export const USER_LIST_MAX_AGE_MS = 60_000;

/** The list as bytes, and gzipped once per rebuild: agents pull it every minute, and re-encoding 100,000 users each
 * time would cost far more than serving it. */
export type UserList = { body: Buffer; gzipped: Buffer; etag: string };

const gzipAsync = promisify(gzip);

/** The version of a list built while the store could not be read: no version read later is equal to it. */
const UNKNOWN = Symbol('version unknown');

type Entry = UserList & { version: string | null | typeof UNKNOWN; validUntil: number };

/**
 * The users every node serves, as the body nodes pull and its ETag. Kept until a write bumps the users' version or
 * a package starts or ends, so that answering an unchanged list (the 304) reads no user or package table.
 */
export class UserListCache {
  #entry: Entry | undefined;
  #building: Promise<Entry> | undefined;

  constructor(
    private readonly subscriptions: SubscriptionService,
    private readonly now: () => number,
  ) {}

  /** The list, at once when the kept one is current and the store answers from memory. */
  current(): MaybePromise<UserList> {
    return thenMaybe(this.#version(), (version) => this.#listFor(version));
  }

  /**
   * A store that is away leaves the version unknown: the list kept is served until its time is up, then built
   * again from the database, so that agents keep pulling a list at most a minute old rather than a 503.
   */
  #version(): MaybePromise<Entry['version']> {
    try {
      const version = this.subscriptions.usersVersion();
      return version instanceof Promise ? version.catch(() => UNKNOWN) : version;
    } catch {
      return UNKNOWN;
    }
  }

  #listFor(version: Entry['version']): MaybePromise<UserList> {
    const entry = this.#entry;
    if (entry && (version === UNKNOWN || entry.version === version) && this.now() < entry.validUntil) return entry;
    // One rebuild at a time: concurrent pulls wait for the same one.
    this.#building ??= this.#build(version).finally(() => {
      this.#building = undefined;
    });
    return this.#building;
  }

  async #build(version: Entry['version']): Promise<Entry> {
    const now = this.now();
    const [users, nextChange] = await Promise.all([
      this.subscriptions.usableUsers(),
      this.subscriptions.nextScheduleChange(),
    ]);
    const body = Buffer.from(
      JSON.stringify({
        users: users.map((user) => ({ id: user.id, uuid: user.uuid, speed_limit: 0, device_limit: 0 })),
      }),
    );
    const entry: Entry = {
      body,
      gzipped: await gzipAsync(body),
      etag: `"${createHash('sha1').update(body).digest('hex')}"`,
      version,
      validUntil: Math.min(nextChange ?? Number.POSITIVE_INFINITY, now + USER_LIST_MAX_AGE_MS),
    };
    this.#entry = entry;
    return entry;
  }
}
