/**
 * Amounts typed by people, turned exactly into the integers the server keeps: money in minor units per currency,
 * traffic in bytes. String and integer maths only, so "12.90" is 1290 and never 1289.9999.
 */

/** "12.90" → 1290 for 2 decimals; null when it is not a non-negative amount with at most that many decimals. */
export function parseMajor(text: string, decimals: number): number | null {
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  return Number(match[1]) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || 0);
}

/** 1290 minor units of 2 decimals → "12.90", exactly (no floating point on the way). */
export function formatMinor(minor: number, decimals: number): string {
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(decimals + 1, '0');
  return decimals === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Bytes in a gibibyte: traffic is entered and shown in GB. */
export const GIB = 1024 ** 3;
const GIB_BIG = BigInt(GIB);

/**
 * "100" or "0.5" GB (GiB, at most three decimals, a whole number of MB) → bytes, rounded to the nearest byte
 * (a thousandth of a GiB is not a whole number of bytes); null when it is not such an amount or not above 0.
 */
export function parseGb(text: string): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,3}))?$/.exec(text.trim());
  if (!match) return null;
  const thousandths = BigInt(match[1] ?? '0') * 1000n + BigInt((match[2] ?? '').padEnd(3, '0'));
  if (thousandths === 0n) return null;
  return Number((thousandths * GIB_BIG + 500n) / 1000n);
}

/** Bytes → GB as typed back ("100", "0.5"): up to three decimals, the nearest thousandth of a GiB. */
export function formatGb(bytes: number): string {
  const thousandths = (BigInt(bytes) * 1000n + GIB_BIG / 2n) / GIB_BIG;
  return formatMinor(Number(thousandths), 3).replace(/\.?0+$/, '');
}
