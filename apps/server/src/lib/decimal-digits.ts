/**
 * Integers written as ASCII digits straight into bytes, for the few places that write thousands of numbers a
 * request (a captcha's outlines, a push's rows for SQLite): `String(n)` makes a string of each first.
 */

/** 10⁰ … 10¹⁵: a safe integer has at most 16 digits. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, power) => 10 ** power);

/** "00" to "99" as ASCII bytes, two a number. */
const DIGIT_PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 0x30 + (i & 1 ? (i >> 1) % 10 : ((i >> 1) / 10) | 0));

/** How many digits a non-negative safe integer has. */
export function digitCount(n: number): number {
  // Most numbers written are small (a captcha's are below a million, thousands a picture): compared outright.
  if (n < 1e6) return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : n < 100000 ? 5 : 6;
  let digits = 7;
  while (digits < 16 && n >= POWERS_OF_TEN[digits]!) digits++;
  return digits;
}

/** Writes a non-negative safe integer's digits so that they end just before `end`; returns where they begin. */
export function writeDigitsBefore(bytes: Uint8Array, end: number, n: number): number {
  let at = end;
  // Past 32 bits one digit a floating-point division; below, two digits a 32-bit one.
  while (n > 0x7fffffff) {
    const tenth = Math.floor(n / 10);
    bytes[--at] = 0x30 + (n - tenth * 10);
    n = tenth;
  }
  while (n >= 100) {
    const hundredth = (n / 100) | 0;
    const pair = (n - hundredth * 100) << 1;
    bytes[--at] = DIGIT_PAIRS[pair + 1]!;
    bytes[--at] = DIGIT_PAIRS[pair]!;
    n = hundredth;
  }
  if (n >= 10) {
    bytes[--at] = DIGIT_PAIRS[(n << 1) + 1]!;
    bytes[--at] = DIGIT_PAIRS[n << 1]!;
  } else {
    bytes[--at] = 0x30 + n;
  }
  return at;
}
