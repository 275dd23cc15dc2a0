/** Money is kept in integer minor units per currency and shown in major units. */
export function toMajor(minor: number, decimals: number): number {
  return minor / 10 ** decimals;
}

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
