import { crc32 } from 'node:zlib';

/**
 * The CRC-32 (gzip's) of bodies that are the same but in a few ranges, the holes, worked out from the holes alone: a
 * feed's gzip trailer without reading its 10–25 KB body (Node's `crc32` of a whole feed was 5 % of a fetch's CPU).
 *
 * CRC-32 is linear over GF(2) for texts of one length: the CRCs of two such texts differ by the register (no start
 * value, no final inversion) of their XOR. A hole's share of that register is its own register times x^(8 × the bytes
 * after it), modulo CRC-32's polynomial; holes known to hold the same bytes in every body share one multiplier, the
 * sum of theirs. So a body's CRC is the sample's, plus, for each group of holes, its multiplier times the register of
 * the group's bytes in the body minus that of the sample's.
 *
 * In a server under load a byte of a hole read here costs as much as twenty of Node's CRC (which the CPU's carry-less
 * multiplication speeds up), and so does a group's multiplication, four look-ups in a table of the group's (4 KB):
 * where the holes are long or fall into many groups (a share-link feed, base64 throughout, whose every credential is
 * encoded its own way) the whole body's CRC is cheaper, and `of` gives none.
 */
export class Crc32OfHoles {
  readonly #base: number;
  /** For each group of holes that hold the same bytes: the first hole's start and end. */
  readonly #ranges: Int32Array;
  /**
   * For each group, its multiplier times each value of each byte of a register (4 × 256 products): a register is
   * multiplied by four look-ups, where a multiplication bit by bit took a third of a feed's whole checksum.
   */
  readonly #products: Uint32Array;

  /**
   * For `sample`'s holes, each in the group of an earlier hole it always holds the same bytes as (`group[i]` the index
   * of the group's first hole, `i` for a hole of its own); undefined where a whole body's CRC costs less.
   */
  static of(
    sample: Buffer,
    holes: ReadonlyArray<{ start: number; end: number }>,
    group: readonly number[],
  ): Crc32OfHoles | undefined {
    let cost = 0;
    holes.forEach(({ start, end }, index) => {
      if (group[index] === index) cost += MULTIPLICATION_COST + HOLE_BYTE_COST * (end - start);
    });
    return cost < sample.length ? new Crc32OfHoles(sample, holes, group) : undefined;
  }

  private constructor(sample: Buffer, holes: ReadonlyArray<{ start: number; end: number }>, group: readonly number[]) {
    const multipliers = new Map<number, number>();
    holes.forEach(({ end }, index) => {
      const first = group[index]!;
      multipliers.set(first, (multipliers.get(first) ?? 0) ^ shiftedBytes(sample.length - end));
    });
    this.#ranges = new Int32Array(multipliers.size * 2);
    this.#products = new Uint32Array(multipliers.size * 1024);
    [...multipliers].forEach(([first, multiplier], group) => {
      this.#ranges.set([holes[first]!.start, holes[first]!.end], group * 2);
      for (let byte = 0; byte < 4; byte++) {
        for (let value = 0; value < 256; value++) {
          this.#products[group * 1024 + byte * 256 + value] = multiply(multiplier, value << (8 * byte));
        }
      }
    });
    // The sample's own share taken out, so that a body's is added to what its fixed bytes give.
    this.#base = (crc32(sample) ^ this.#holesShare(sample)) >>> 0;
  }

  /** The CRC-32 of a body of the sample's length that differs from it only in the holes. */
  of(body: Buffer): number {
    return (this.#base ^ this.#holesShare(body)) >>> 0;
  }

  #holesShare(body: Buffer): number {
    const ranges = this.#ranges;
    const products = this.#products;
    let share = 0;
    for (let group = 0, at = 0; at < products.length; group++, at += 1024) {
      const value = register(body, ranges[2 * group]!, ranges[2 * group + 1]!);
      share ^=
        products[at + (value & 0xff)]! ^
        products[at + 256 + ((value >>> 8) & 0xff)]! ^
        products[at + 512 + ((value >>> 16) & 0xff)]! ^
        products[at + 768 + (value >>> 24)]!;
    }
    return share;
  }
}

/** What a group's multiplication and a hole's byte cost, in bytes of Node's CRC of a whole body (measured). */
const MULTIPLICATION_COST = 20;
const HOLE_BYTE_COST = 20;

/** CRC-32's polynomial, bit-reversed (the register's lowest bit is the highest power). */
const POLYNOMIAL = 0xedb88320;
/** x^0, the multiplicative one, in that order. */
const ONE = 0x80000000;

const TABLE = Uint32Array.from({ length: 256 }, (_, byte) => {
  let value = byte;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? (value >>> 1) ^ POLYNOMIAL : value >>> 1;
  return value;
});

/** The register after these bytes from zero, without the final inversion: the linear part of their CRC-32. */
function register(bytes: Buffer, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = TABLE[(value ^ bytes[i]!) & 0xff]! ^ (value >>> 8);
  return value >>> 0;
}

/** a × b modulo the polynomial. */
function multiply(a: number, b: number): number {
  let product = 0;
  for (let bit = ONE; bit !== 0 && a !== 0; bit >>>= 1) {
    if (a & bit) {
      product ^= b;
      a &= ~bit;
    }
    b = b & 1 ? (b >>> 1) ^ POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** x^(8 × count) modulo the polynomial: what a register is multiplied by as `count` zero bytes follow its bytes. */
function shiftedBytes(count: number): number {
  let result = ONE;
  // x^8, then x^16, x^32…: squared for each bit of the count.
  let power = 0x00800000;
  for (let left = count; left > 0; left = Math.floor(left / 2)) {
    if (left % 2 === 1) result = multiply(power, result);
    power = multiply(power, power);
  }
  return result;
}
