/** A day in milliseconds. */
export const UTC_DAY_MS = 24 * 3600_000;

/**
 * The first moment (00:00 UTC) of the last `days` UTC days, today included: 1 is today's midnight, 7 the midnight six
 * days before it. The console's figures count days in UTC, whatever the operator's time zone.
 */
export function startOfUtcDays(now: number, days: number): number {
  return (Math.floor(now / UTC_DAY_MS) - (days - 1)) * UTC_DAY_MS;
}
