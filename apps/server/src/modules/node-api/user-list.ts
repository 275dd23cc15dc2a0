import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { SubscriptionService } from '../subscription/subscription.service.js';
import { etagOf } from './etag.js';

/** However quiet the writes, a cached list is rebuilt at least this often (operator changes without Redis). */
export const USER_LIST_MAX_AGE_MS = 60_000;
/**
 * A list this close to the end of its minute is built again in the background, and served meanwhile: a rebuild of
 * 100,000 users takes the best part of a second, which the pulls of every node would otherwise wait for each minute.
 */
export const USER_LIST_REFRESH_BEFORE_MS = 10_000;

/** The list as bytes, and gzipped once per rebuild: agents pull it every minute, and re-encoding 100,000 users each
 * time would cost far more than serving it. */
export type UserList = { body: Buffer; gzipped: Buffer; etag: string };

const gzipAsync = promisify(gzip);

/** The version of a list built while the store could not be read: no version read later is equal to it. */
const UNKNOWN = Symbol('version unknown');

/** A list, the users' version it was built at, when it stops being true, and from when it is built again early. */
type Entry = UserList & { version: string | null | typeof UNKNOWN; validUntil: number; refreshFrom: number };

/**
 * The users every node serves, as the body nodes pull and its ETag. Kept until a write bumps the users' version or
 * a package starts or ends, so that answering an unchanged list (the 304) reads no user or package table; and built
 * again, while still served, in the last seconds of its minute.
 */
export class UserListCache {
  #entry: Entry | undefined;
  #building: Promise<Entry> | undefined;

  constructor(
    private readonly subscriptions: SubscriptionService,
    private readonly now: () => number,
  ) {}

  /**
   * The list, as kept while the users' version in the store is unchanged and its time is not up. A store that is
   * away leaves the version unknown: the list kept is served until its time is up, then built again from the
   * database, so that agents keep pulling a list at most a minute old rather than a 503.
   */
  async current(): Promise<UserList> {
    let version: Entry['version'];
    try {
      version = await this.subscriptions.usersVersion();
    } catch {
      version = UNKNOWN;
    }
    const entry = this.#entry;
    const now = this.now();
    if (entry && (version === UNKNOWN || entry.version === version) && now < entry.validUntil) {
      // A rebuild that fails here leaves the list as it is: the pulls after its minute build it themselves.
      if (now >= entry.refreshFrom) this.#rebuild(version).catch(() => {});
      return entry;
    }
    return this.#rebuild(version);
  }

  /** One rebuild at a time: concurrent pulls wait for the same one. */
  #rebuild(version: Entry['version']): Promise<Entry> {
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
    // A list rebuilt unchanged (its minute up, nothing written) keeps its gzip and tag.
    const kept = this.#entry?.body.equals(body) ? this.#entry : undefined;
    const entry: Entry = {
      body: kept?.body ?? body,
      gzipped: kept?.gzipped ?? (await gzipAsync(body)),
      etag: kept?.etag ?? etagOf(body),
      version,
      validUntil: Math.min(nextChange ?? Number.POSITIVE_INFINITY, now + USER_LIST_MAX_AGE_MS),
      // From the minute alone: a package that starts or ends sooner makes the list untrue then, and it is built after.
      refreshFrom: now + USER_LIST_MAX_AGE_MS - USER_LIST_REFRESH_BEFORE_MS,
    };
    this.#entry = entry;
    return entry;
  }
}
