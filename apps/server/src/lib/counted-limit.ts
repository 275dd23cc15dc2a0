import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../plugins/app/store.js';
import type { MaybePromise } from './maybe-promise.js';

/** At most `max` requests in `timeWindow` ms: the shape of @fastify/rate-limit's limits, so that all are said alike. */
export type Limit = { max: number; timeWindow: number };

/**
 * At most so many requests a window for each key (an address, a link), counted in the store that every instance shares:
 * the limits of the calls answered before Fastify routes them (lib/early-answers.ts), which @fastify/rate-limit's
 * hooks never see.
 */
export class CountedLimit {
  constructor(
    private readonly store: Store,
    private readonly log: FastifyBaseLogger,
    /** What the counts are kept under in the store, and named in the log. */
    private readonly name: string,
    readonly limit: Limit,
  ) {}

  /**
   * Counts one more request for `key`: the seconds to wait when that is over the limit, else undefined; at once when
   * the store answers at once (lib/maybe-promise.ts).
   */
  count(key: string): MaybePromise<number | undefined> {
    let counting: MaybePromise<number>;
    try {
      counting = this.store.increment(`${this.name}:${key}`, this.limit.timeWindow);
    } catch (error) {
      return this.#uncounted(error);
    }
    // Functions made only for a promise: a count given at once (every feed fetch, twice) makes none.
    return counting instanceof Promise
      ? counting.then(
          (count) => this.#over(count),
          (error: unknown) => this.#uncounted(error),
        )
      : this.#over(counting);
  }

  #over(count: number): number | undefined {
    return count > this.limit.max ? Math.ceil(this.limit.timeWindow / 1000) : undefined;
  }

  /** As with @fastify/rate-limit's limits, a store that is away leaves the call served rather than refused. */
  #uncounted(error: unknown): undefined {
    this.log.warn({ err: { message: (error as Error).message }, limit: this.name }, 'request not counted');
    return undefined;
  }
}
