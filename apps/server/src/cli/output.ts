import { GIB } from '../lib/units.js';

/** Columns a terminal gives a character: two for East Asian wide ones (Chinese names), one otherwise. */
function widthOf(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += widthOf(char);
  return width;
}

const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - displayWidth(text)));

/** One line per value: control characters (a newline in a plan's HTML) would break the layout or the terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to match them
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');

/** An aligned plain-text table: a header row, then the rows; `empty` is printed instead when there are none. */
export function table(headers: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return empty;
  const cells = rows.map((row) => row.map(oneLine));
  const widths = headers.map((header, i) =>
    Math.max(displayWidth(header), ...cells.map((row) => displayWidth(row[i] ?? ''))),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : pad(cell, widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)].join('\n');
}

/** `key: value` lines with the values aligned. */
export function keyValues(pairs: Array<[string, string | number]>): string {
  const width = Math.max(...pairs.map(([key]) => displayWidth(key) + 1));
  return pairs.map(([key, value]) => `${pad(`${key}:`, width)}  ${oneLine(String(value))}`.trimEnd()).join('\n');
}

/** Minor units as a major amount with all of the currency's decimals: 599, 2 → "5.99". */
export function formatMajor(minor: number, decimals: number): string {
  if (decimals === 0) return String(minor);
  const digits = String(Math.abs(minor)).padStart(decimals + 1, '0');
  return `${minor < 0 ? '-' : ''}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Bytes as gigabytes (GiB, as traffic is entered): 107374182400 → 100. */
export function toGb(bytes: number): number {
  return Math.round((bytes / GIB) * 1000) / 1000;
}

export const yesNo = (value: boolean) => (value ? 'yes' : 'no');

export const isoTime = (ms: number) => new Date(ms).toISOString();
