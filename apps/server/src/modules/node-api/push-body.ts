/**
 * A push's body as agents write it, read straight from its bytes: `{"<uid>":[upload,download],…}` with plain digits,
 * any JSON whitespace, no user twice. A 10,000-user push is 200 KB of JSON: parsing it into an object, then walking
 * that object's 10,000 keys, took 3 ms in the app; reading the bytes once takes about one. Any other body (escapes,
 * exponents, fractions, a user twice, anything malformed) is left to `JSON.parse` and `PushBodySchema`, whose answer
 * this reader must equal wherever it answers (`push-body.test.ts` holds it to that).
 */

/** One user's pushed bytes, as the push's body gives them (before the node's rate). */
export type PushedTraffic = { userId: number; upload: number; download: number };

/** A body this reader read: JSON never makes one, so the schema can tell it from a parsed object. */
export class ReadPush {
  constructor(readonly entries: PushedTraffic[]) {}
}

export const MAX_BYTES = 2 ** 50;
/** A user id has at most 10 digits, a byte count up to 2^50 at most 16: both exact in a double. */
const MAX_ID_DIGITS = 10;
const MAX_BYTES_DIGITS = 16;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const ZERO = 0x30;
const NINE = 0x39;

/** The entries of a body in the common form, or undefined for any other bytes (then parsed as JSON). */
export function readPushBody(bytes: Buffer): ReadPush | undefined {
  const entries: PushedTraffic[] = [];
  const unique = new UniqueIds(bytes, entries);
  let at = skipSpace(bytes, 0);
  if (bytes[at] !== OPEN_BRACE) return undefined;
  at = skipSpace(bytes, at + 1);
  if (bytes[at] === CLOSE_BRACE) return skipSpace(bytes, at + 1) === bytes.length ? new ReadPush(entries) : undefined;
  for (;;) {
    if (bytes[at] !== QUOTE) return undefined;
    let end = digitsEnd(bytes, at + 1, MAX_ID_DIGITS);
    if (end < 0 || bytes[end] !== QUOTE) return undefined;
    const userId = digitsValue(bytes, at + 1, end);
    if (!unique.add(userId, at + 1, end)) return undefined;
    at = skipSpace(bytes, end + 1);
    if (bytes[at] !== COLON) return undefined;
    at = skipSpace(bytes, at + 1);
    if (bytes[at] !== OPEN_BRACKET) return undefined;
    at = skipSpace(bytes, at + 1);
    end = digitsEnd(bytes, at, MAX_BYTES_DIGITS);
    if (end < 0) return undefined;
    const upload = digitsValue(bytes, at, end);
    at = skipSpace(bytes, end);
    if (bytes[at] !== COMMA) return undefined;
    at = skipSpace(bytes, at + 1);
    end = digitsEnd(bytes, at, MAX_BYTES_DIGITS);
    if (end < 0) return undefined;
    const download = digitsValue(bytes, at, end);
    at = skipSpace(bytes, end);
    if (bytes[at] !== CLOSE_BRACKET || upload > MAX_BYTES || download > MAX_BYTES) return undefined;
    entries.push({ userId, upload, download });
    at = skipSpace(bytes, at + 1);
    const next = bytes[at];
    at = skipSpace(bytes, at + 1);
    if (next === CLOSE_BRACE) return at === bytes.length ? new ReadPush(entries) : undefined;
    if (next !== COMMA) return undefined;
  }
}

/**
 * Tells a user id seen before, cheaply while the ids come in order: agents written in Go send them sorted as text
 * (encoding/json sorts a map's keys), others in numeric order. Only once they leave both orders does it keep a set.
 */
class UniqueIds {
  #last = -1;
  #lastFrom = 0;
  #lastTo = 0;
  #numeric = true;
  #textual = true;
  #seen: Set<number> | undefined;

  constructor(
    private readonly bytes: Buffer,
    private readonly before: readonly PushedTraffic[],
  ) {}

  /** False when the id was seen before; `from` and `to` delimit its digits in the bytes. */
  add(id: number, from: number, to: number): boolean {
    if (!this.#seen && this.#last >= 0) {
      this.#numeric &&= id > this.#last;
      this.#textual &&= compareDigits(this.bytes, this.#lastFrom, this.#lastTo, from, to) < 0;
      // Out of both orders: the ids so far were in order, so distinct, and start the set.
      if (!this.#numeric && !this.#textual) this.#seen = new Set(this.before.map((entry) => entry.userId));
    }
    if (this.#seen) {
      if (this.#seen.has(id)) return false;
      this.#seen.add(id);
      return true;
    }
    this.#last = id;
    this.#lastFrom = from;
    this.#lastTo = to;
    return true;
  }
}

/** The order of two runs of digits, compared as text. */
function compareDigits(bytes: Buffer, aFrom: number, aTo: number, bFrom: number, bTo: number): number {
  const common = Math.min(aTo - aFrom, bTo - bFrom);
  for (let i = 0; i < common; i++) {
    const difference = bytes[aFrom + i]! - bytes[bFrom + i]!;
    if (difference !== 0) return difference;
  }
  return aTo - aFrom - (bTo - bFrom);
}

function skipSpace(bytes: Buffer, from: number): number {
  let at = from;
  let code = bytes[at];
  while (code === SPACE || code === LF || code === CR || code === TAB) code = bytes[++at];
  return at;
}

/** Where a run of digits from `from` ends: -1 when there is none, it is longer than `most`, or has a leading zero. */
function digitsEnd(bytes: Buffer, from: number, most: number): number {
  let at = from;
  let code = bytes[at];
  while (code !== undefined && code >= ZERO && code <= NINE) code = bytes[++at];
  const count = at - from;
  if (count === 0 || count > most || (count > 1 && bytes[from] === ZERO)) return -1;
  return at;
}

function digitsValue(bytes: Buffer, from: number, to: number): number {
  let value = 0;
  for (let at = from; at < to; at++) value = value * 10 + (bytes[at]! - ZERO);
  return value;
}
