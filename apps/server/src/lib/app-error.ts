import type { ErrorKey } from '@mutenet/contract';

/** A failure the customer should be told about: the error handler turns it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly data: unknown = null,
    /** Seconds after which trying again may succeed, sent as `Retry-After`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(key);
    this.name = 'AppError';
  }
}
