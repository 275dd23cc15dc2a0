import type { ErrorKey } from '@mutenet/contract';

/** A failure the customer should be told about: the error handler turns it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly data: unknown = null,
  ) {
    super(key);
    this.name = 'AppError';
  }
}
