import { constants, crc32, deflateRawSync } from 'node:zlib';
import { Crc32OfHoles } from './crc32-holes.js';

/**
 * Gzip for texts that are the same but in a few fixed places: a feed's body is the same for every customer but for
 * their credentials, of the same length for all. The fixed parts are deflated once, each as a run of blocks that ends
 * byte-aligned (a sync flush) and looks back only at fixed parts; a request writes each varying part between them as
 * a stored block, or, where it repeats an earlier varying part, as a block holding one back-reference to it; and the
 * gzip header and trailer. A body is gzipped this way in a copy and a checksum instead of a deflate of the whole.
 *
 * What varies is learnt from samples (the text made for several stand-ins): wherever any two differ, with what lies
 * close around it. A body that differs from the samples anywhere else (a place the samples happened to agree on, or
 * another length) is not gzipped here: `gzip` says so, and the caller compresses it as usual.
 *
 * Or the holes are declared (`ofHoles`) by a caller that makes every body from the same fixed bytes, and knows which
 * holes hold the same bytes as an earlier one in every body: then a body is gzipped with no look at what it holds
 * but its length, which saves a copy and a comparison per hole and one of the whole body.
 */
export class GzipTemplate {
  /**
   * The first sample, whose fixed parts every body must match, when the holes were learnt. A body's holes are copied
   * into it before it is held against the body: one comparison of the whole instead of one per fixed part.
   */
  readonly #check: Buffer | undefined;
  readonly #length: number;
  readonly #parts: ReadonlyArray<Buffer | Hole>;
  readonly #holes: readonly Hole[];
  /** Whether each hole of the body being gzipped repeats its earlier one, when the holes were learnt. */
  readonly #repeating: Uint8Array;
  /** The answer's bytes but those of holes that may or may not repeat: header, fixed parts, last block and trailer. */
  readonly #knownBytes: number;
  /**
   * When the holes were declared, and so whether each repeats is known: the whole answer for the sample, and where
   * each hole's stored bytes lie in it (answer offset, body start, body end, three numbers a hole). A body's answer is
   * this copied, with its holes' bytes written over and its trailer: one copy of the whole and a few short ones,
   * instead of one per part (a feed has a hundred). Its trailer's checksum is worked out from the holes alone where
   * that costs less than reading the body.
   */
  readonly #image: { bytes: Buffer; stored: Int32Array; crc: Crc32OfHoles | undefined } | undefined;
  /** The last body gzipped from the image, and a view of each of its stored runs (`#image.stored`). */
  #views: { body: Buffer; views: Uint8Array[] } | undefined;

  /** `sameGroup`: for declared holes, the first hole of those that always hold the same bytes as each. */
  private constructor(sample: Buffer, parts: Array<Buffer | Hole>, sameGroup?: readonly number[]) {
    const learnt = sameGroup === undefined;
    this.#check = learnt ? sample : undefined;
    this.#length = sample.length;
    this.#parts = parts;
    this.#holes = parts.filter((part): part is Hole => !Buffer.isBuffer(part));
    this.#repeating = Uint8Array.from(this.#holes, (hole) => (hole.repeats ? 1 : 0));
    this.#knownBytes = parts.reduce(
      (bytes, part) => bytes + (Buffer.isBuffer(part) ? part.length : 0),
      GZIP_HEADER.length + FINAL_BLOCK.length + GZIP_TRAILER_BYTES,
    );
    if (learnt) return;
    const stored: number[] = [];
    const size = this.#holes.reduce((bytes, hole) => bytes + holeBytes(hole, hole.repeats !== undefined), 0);
    const bytes = this.#assemble(sample, this.#knownBytes + size, (at, start, end) => stored.push(at, start, end));
    this.#image = { bytes, stored: Int32Array.from(stored), crc: Crc32OfHoles.of(sample, this.#holes, sameGroup) };
  }

  /**
   * The template of texts like these samples, or undefined if they differ in length (their varying places are then
   * not fixed), vary nowhere (nothing to gain over compressing the one text once) or hold every byte value.
   */
  static of(samples: readonly Buffer[]): GzipTemplate | undefined {
    const [sample, ...others] = samples;
    if (!sample || others.length === 0 || others.some((other) => other.length !== sample.length)) return undefined;
    const ranges = varyingRanges(sample, others);
    if (ranges.length === 0) return undefined;
    const holesByText: HolesByText = new Map();
    const parts = partsOf(sample, ranges, (range) => {
      const hole = { ...range, repeats: repeatOf(holesByText, range, samples) };
      holesByText.set(sample.toString('latin1', range.start, range.end), hole);
      return hole;
    });
    return parts && new GzipTemplate(Buffer.from(sample), parts);
  }

  /**
   * The template of bodies that hold `sample`'s bytes but in these holes (in order, apart), each hole holding the
   * same bytes as the earlier hole it names in every body; undefined if there are none or every byte value is used.
   */
  static ofHoles(
    sample: Buffer,
    holes: ReadonlyArray<Range & { sameAs?: number | undefined }>,
  ): GzipTemplate | undefined {
    if (holes.length === 0) return undefined;
    const declared: Hole[] = [];
    const sameGroup: number[] = [];
    const parts = partsOf(sample, holes, ({ start, end }, index) => {
      const earlier = holes[index]!.sameAs;
      const other = earlier === undefined ? undefined : declared[earlier];
      const length = end - start;
      const same = other !== undefined && other.end - other.start === length;
      const reachable = same && length >= SHORTEST_COPY && start - other.start <= WINDOW;
      const hole = { start, end, repeats: reachable ? repeatBlock(other, start, end) : undefined };
      declared.push(hole);
      sameGroup.push(same ? sameGroup[earlier!]! : index);
      return hole;
    });
    return parts && new GzipTemplate(sample, parts, sameGroup);
  }

  /** The body gzipped, or undefined when it does not fit this template. */
  gzip(body: Buffer): Buffer | undefined {
    if (body.length !== this.#length) return undefined;
    const image = this.#image;
    if (image) {
      const gzipped = Buffer.allocUnsafe(image.bytes.length);
      image.bytes.copy(gzipped);
      const { stored } = image;
      const views = this.#viewsOf(body, stored);
      for (let i = 0; i < views.length; i++) gzipped.set(views[i]!, stored[3 * i]!);
      writeTrailer(gzipped, image.crc?.of(body) ?? crc32(body), body.length);
      return gzipped;
    }
    const check = this.#check!;
    const holes = this.#holes;
    const repeating = this.#repeating;
    let size = this.#knownBytes;
    for (let i = 0; i < holes.length; i++) {
      const hole = holes[i]!;
      const { start, end, repeats } = hole;
      body.copy(check, start, start, end);
      const repeated = repeats !== undefined && sameBytes(body, repeats, hole);
      repeating[i] = repeated ? 1 : 0;
      size += holeBytes(hole, repeated);
    }
    if (!check.equals(body)) return undefined;
    return this.#assemble(body, size);
  }

  /**
   * Views of a body's stored runs, kept while the bodies come in the same buffer (a layout's scratch copy, written
   * anew for each request): a view made once and set whole costs a quarter of a `copy` of its range (110 ns in
   * Node 20).
   */
  #viewsOf(body: Buffer, stored: Int32Array): Uint8Array[] {
    if (this.#views?.body === body) return this.#views.views;
    const views: Uint8Array[] = [];
    for (let i = 0; i < stored.length; i += 3) views.push(body.subarray(stored[i + 1]!, stored[i + 2]!));
    this.#views = { body, views };
    return views;
  }

  /**
   * The body gzipped in `size` bytes, each hole as `#repeating` says; `onStored` is told where each run of a hole's
   * bytes went.
   */
  #assemble(body: Buffer, size: number, onStored?: (at: number, start: number, end: number) => void): Buffer {
    const gzipped = Buffer.allocUnsafe(size);
    const repeating = this.#repeating;
    let at = GZIP_HEADER.copy(gzipped, 0);
    let hole = 0;
    for (const part of this.#parts) {
      if (Buffer.isBuffer(part)) at += part.copy(gzipped, at);
      else if (repeating[hole++] === 1) at += part.repeats!.block.copy(gzipped, at);
      else at = writeStored(gzipped, at, body, part.start, part.end, onStored);
    }
    FINAL_BLOCK.copy(gzipped, at);
    writeTrailer(gzipped, crc32(body), body.length);
    return gzipped;
  }
}

/** The gzip trailer, the body's CRC-32 and length, in the last 8 bytes. */
function writeTrailer(gzipped: Buffer, crc: number, length: number): void {
  const at = gzipped.writeUInt32LE(crc, gzipped.length - GZIP_TRAILER_BYTES);
  gzipped.writeUInt32LE(length >>> 0, at);
}

type Range = { start: number; end: number };

/**
 * The template's parts: the fixed runs deflated, each looking back only at fixed bytes (the deflater sees the holes
 * filled with a byte that no fixed part holds), and a hole for each range; undefined if every byte value is used.
 */
function partsOf(
  sample: Buffer,
  ranges: readonly Range[],
  holeOf: (range: Range, index: number) => Hole,
): Array<Buffer | Hole> | undefined {
  const filler = unusedByte(sample, ranges);
  if (filler === undefined) return undefined;
  const seen = Buffer.from(sample);
  for (const { start, end } of ranges) seen.fill(filler, start, end);
  const parts: Array<Buffer | Hole> = [];
  let from = 0;
  for (const [index, range] of ranges.entries()) {
    if (range.start > from) parts.push(deflateFixed(seen, from, range.start));
    parts.push(holeOf(range, index));
    from = range.end;
  }
  if (from < sample.length) parts.push(deflateFixed(seen, from, sample.length));
  return parts;
}

/** A hole's bytes in the stream: its copy's block if it repeats, else its bytes as stored blocks. */
const holeBytes = (hole: Hole, repeated: boolean) =>
  repeated ? hole.repeats!.block.length : storedSize(hole.end - hole.start);
/** A place where bodies differ, and the earlier hole it held the same bytes as in every sample (then likely again). */
type Hole = Range & { repeats?: Repeat | undefined };
/** The earlier hole, and the block that copies it. */
type Repeat = Range & { block: Buffer };

/** Bytes around a difference taken into its hole, and fixed runs this short between holes joined to them. */
const HOLE_MARGIN = 2;
const JOIN_GAP = 16;
/** How far back deflate can refer, and the shortest and longest copy it writes. */
const WINDOW = 32 * 1024;
const SHORTEST_COPY = 3;
const LONGEST_COPY = 258;
/** How far back a fixed part looks when deflated. */
const LOOK_BACK = 8 * 1024;

/** Where the samples differ, each place widened by the margin, and joined across short gaps. */
function varyingRanges(sample: Buffer, others: readonly Buffer[]): Range[] {
  const ranges: Range[] = [];
  for (let i = 0; i < sample.length; i++) {
    const byte = sample[i];
    let varies = false;
    for (let other = 0; other < others.length && !varies; other++) varies = others[other]![i] !== byte;
    if (!varies) continue;
    const start = Math.max(0, i - HOLE_MARGIN);
    const end = Math.min(sample.length, i + 1 + HOLE_MARGIN);
    const last = ranges.at(-1);
    if (last && start - last.end <= JOIN_GAP) last.end = end;
    else ranges.push({ start, end });
  }
  return ranges;
}

/** A byte value that no fixed part holds, if any. */
function unusedByte(sample: Buffer, holes: readonly Range[]): number | undefined {
  const used = new Uint8Array(256);
  let from = 0;
  for (const { start, end } of [...holes, { start: sample.length, end: sample.length }]) {
    for (let i = from; i < start; i++) used[sample[i]!] = 1;
    from = end;
  }
  const unused = used.indexOf(0);
  return unused === -1 ? undefined : unused;
}

/**
 * A fixed part deflated at the best level, ending byte-aligned, with what came before it to look back at: the last
 * 8 KB of it, where a feed's nodes repeat one another. The whole window (32 KB) and zlib's most memory cost three to
 * five times the time (90–150 µs a part against 26, a node list being a part a node) for the same bytes.
 */
function deflateFixed(seen: Buffer, start: number, end: number): Buffer {
  return deflateRawSync(seen.subarray(start, end), {
    level: constants.Z_BEST_COMPRESSION,
    finishFlush: constants.Z_SYNC_FLUSH,
    ...(start > 0 && { dictionary: seen.subarray(Math.max(0, start - LOOK_BACK), start) }),
  });
}

/** For each text a hole held in the first sample, the last hole that held it so far. */
type HolesByText = Map<string, Hole>;

/** The nearest earlier hole within reach that held the same bytes as this range in every sample. */
function repeatOf(holesByText: HolesByText, range: Range, samples: readonly Buffer[]): Repeat | undefined {
  const { start, end } = range;
  if (end - start < SHORTEST_COPY) return undefined;
  const other = holesByText.get(samples[0]!.toString('latin1', start, end));
  if (!other || start - other.start > WINDOW) return undefined;
  if (!samples.every((sample) => sameBytes(sample, other, range))) return undefined;
  return repeatBlock(other, start, end);
}

function repeatBlock(other: Range, start: number, end: number): Repeat {
  return { start: other.start, end: other.end, block: copyBlock(end - start, start - other.start) };
}

/** Whether a text holds the same bytes in two ranges. */
function sameBytes(text: Buffer, a: Range, b: Range): boolean {
  return text.compare(text, a.start, a.end, b.start, b.end) === 0;
}

const STORED_MAX = 65535;
const storedSize = (length: number) => length + 5 * Math.max(1, Math.ceil(length / STORED_MAX));

/** Bytes as stored blocks: a header byte (not final, type 0; the stream is byte-aligned), the length and its complement. */
function writeStored(
  out: Buffer,
  at: number,
  body: Buffer,
  start: number,
  end: number,
  onStored?: (at: number, start: number, end: number) => void,
): number {
  do {
    const length = Math.min(STORED_MAX, end - start);
    out[at] = 0;
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    onStored?.(at + 5, start, start + length);
    at += 5 + body.copy(out, at + 5, start, start + length);
    start += length;
  } while (start < end);
  return at;
}

/**
 * A block of the fixed Huffman codes (RFC 1951, 3.2.6) that copies `length` bytes from `distance` back, then an empty
 * stored block, which brings the stream back to a byte boundary as a sync flush does.
 */
function copyBlock(length: number, distance: number): Buffer {
  const bits = new BitWriter();
  bits.write(0, 1); // not the final block
  bits.write(1, 2); // fixed Huffman codes
  let left = length;
  while (left > 0) {
    // A rest too short to copy is avoided by leaving it more.
    const take = left > LONGEST_COPY ? Math.min(LONGEST_COPY, left - SHORTEST_COPY) : left;
    writeLengthAndDistance(bits, take, distance);
    left -= take;
  }
  bits.writeCode(0, 7); // end of block (256)
  bits.write(0, 3); // an empty stored block, not final
  return Buffer.concat([bits.flush(), Buffer.from([0x00, 0x00, 0xff, 0xff])]);
}

const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];

function writeLengthAndDistance(bits: BitWriter, length: number, distance: number): void {
  const lengthCode = lastAtMost(LENGTH_BASE, length);
  const symbol = 257 + lengthCode;
  // Fixed codes: 256–279 in 7 bits from 0, 280–287 in 8 bits from 0b11000000.
  if (symbol <= 279) bits.writeCode(symbol - 256, 7);
  else bits.writeCode(0b11000000 + symbol - 280, 8);
  bits.write(length - LENGTH_BASE[lengthCode]!, LENGTH_EXTRA[lengthCode]!);
  const distanceCode = lastAtMost(DISTANCE_BASE, distance);
  bits.writeCode(distanceCode, 5);
  bits.write(distance - DISTANCE_BASE[distanceCode]!, DISTANCE_EXTRA[distanceCode]!);
}

function lastAtMost(bases: readonly number[], value: number): number {
  let index = 0;
  while (index + 1 < bases.length && bases[index + 1]! <= value) index++;
  return index;
}

/** Bits packed from the lowest of each byte up, as deflate writes them. */
class BitWriter {
  readonly #bytes: number[] = [];
  #current = 0;
  #used = 0;

  /** A value's bits, lowest first (header fields, extra bits). */
  write(value: number, count: number): void {
    for (let i = 0; i < count; i++) this.#bit((value >> i) & 1);
  }

  /** A Huffman code, highest bit first. */
  writeCode(code: number, count: number): void {
    for (let i = count - 1; i >= 0; i--) this.#bit((code >> i) & 1);
  }

  /** The bytes, the last padded with zeros. */
  flush(): Buffer {
    if (this.#used > 0) this.#bytes.push(this.#current);
    return Buffer.from(this.#bytes);
  }

  #bit(bit: number): void {
    this.#current |= bit << this.#used;
    if (++this.#used === 8) {
      this.#bytes.push(this.#current);
      this.#current = 0;
      this.#used = 0;
    }
  }
}

/** Gzip's header: deflate, no name or time, "unknown" system; and its trailer's size (CRC-32 and length). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
const GZIP_TRAILER_BYTES = 8;
/** The last block: empty, fixed codes. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
