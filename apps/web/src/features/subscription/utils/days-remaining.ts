const DAY_MS = 24 * 60 * 60_000;

/**
 * Whole days until a package ends (spec section 9: from `endAt`, in epoch seconds). A day begun counts as a day, so
 * that a package bought for 30 days shows 30; an ended package shows 0.
 */
export function daysRemaining(endAt: number, now: number = Date.now()): number {
  return Math.max(0, Math.ceil((endAt * 1000 - now) / DAY_MS));
}
