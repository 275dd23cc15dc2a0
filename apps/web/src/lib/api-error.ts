export type ApiErrorKind = 'network' | 'http' | 'business' | 'invalid';

/** Why a call failed (the customer panel's and the console's clients raise it alike). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly details: { status?: number; code?: number; data?: unknown } = {},
  ) {
    super(message);
  }
  get status(): number | undefined {
    return this.details.status;
  }
  get code(): number | undefined {
    return this.details.code;
  }
}
