import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GzipTemplate } from './gzip-template.js';

/** A text of fixed pieces with a credential between each two: `pieces[0] + credential + pieces[1] + …`. */
const textOf = (pieces: readonly string[], credential: string) => Buffer.from(pieces.join(credential), 'utf8');
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe('GzipTemplate', () => {
  it('gzips any body like its samples to bytes that gunzip to the body, copying repeated holes', () => {
    let gzipped = 0;
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 300 }), { minLength: 2, maxLength: 12 }),
        fc.integer({ min: 3, max: 40 }),
        fc.integer({ min: 2, max: 5 }),
        (pieces, credentialBytes, sampleCount) => {
          const samples = Array.from({ length: sampleCount }, () => textOf(pieces, hex(credentialBytes)));
          const template = GzipTemplate.of(samples);
          if (!template) return;
          for (let customer = 0; customer < 3; customer++) {
            const body = textOf(pieces, hex(credentialBytes));
            const gzip = template.gzip(body);
            if (gzip === undefined) continue;
            gzipped++;
            expect(gunzipSync(gzip).equals(body)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
    // Random credentials differ from every sample's wherever they can: nearly every body fits.
    expect(gzipped).toBeGreaterThan(800);
  });

  it('copies a hole that repeats an earlier one, and stores it when this body’s do not repeat', () => {
    const pieces = Array.from(
      { length: 30 },
      (_, index) => `\nproxy ${index}: {server: node${index}.example.com, id: `,
    );
    const template = GzipTemplate.of([1, 2, 3].map(() => textOf(pieces, hex(18))))!;
    const repeating = textOf(pieces, hex(18));
    // The same length and fixed parts, but every hole different.
    const differing = Buffer.from(pieces.map((piece, index) => (index === 0 ? piece : hex(18) + piece)).join(''));
    expect(differing.length).toBe(repeating.length);
    const copied = template.gzip(repeating)!;
    const stored = template.gzip(differing)!;
    expect(gunzipSync(copied).equals(repeating)).toBe(true);
    expect(gunzipSync(stored).equals(differing)).toBe(true);
    // A copy is a few bytes where a stored hole is its 36 bytes and 5 more.
    expect(stored.length - copied.length).toBeGreaterThan(28 * 30);
    // Short fixed parts each end their own blocks: less than deflating the whole would save, but still most.
    expect(copied.length).toBeLessThan(repeating.length / 2);
  });

  it('copies holes longer than one copy can reach, stores ones longer than a stored block, and only within reach', () => {
    const cases: Array<[pieces: string[], credentialBytes: number]> = [
      [['a', ' and ', ' again'], 300],
      [['b', ' and ', ' again'], 129],
      [['c', 'x'.repeat(40_000), 'y'], 10],
      [['d', ' once'], 40_000],
    ];
    for (const [pieces, credentialBytes] of cases) {
      const template = GzipTemplate.of([1, 2].map(() => textOf(pieces, hex(credentialBytes))))!;
      const body = textOf(pieces, hex(credentialBytes));
      expect(gunzipSync(template.gzip(body)!).equals(body)).toBe(true);
    }
  });

  it('never has a fixed part look back into a hole, even where a sample’s hole held the same text', () => {
    const pieces = ['id: ', ', then id: ', ', and text: 0123456789abcdef0123456789abcdef, the end'];
    const first = textOf(pieces, '0123456789abcdef0123456789abcdef');
    const template = GzipTemplate.of([first, ...[1, 2].map(() => textOf(pieces, hex(16)))])!;
    const body = textOf(pieces, hex(16));
    expect(gunzipSync(template.gzip(body)!).equals(body)).toBe(true);
  });

  it('gives up on a body that differs where the samples agreed, or is of another length', () => {
    const pieces = ['name: ', '\nid: ', '\n'];
    const template = GzipTemplate.of([1, 2, 3].map(() => textOf(pieces, hex(16))))!;
    expect(template.gzip(textOf(['nome: ', '\nid: ', '\n'], hex(16)))).toBeUndefined();
    expect(template.gzip(textOf(pieces, hex(17)))).toBeUndefined();
    expect(template.gzip(textOf(pieces, hex(16)))).toBeDefined();
  });

  it('makes no template of samples of different lengths, of identical ones, of one, or of every byte value', () => {
    expect(GzipTemplate.of([Buffer.from('ab'), Buffer.from('abc')])).toBeUndefined();
    expect(GzipTemplate.of([Buffer.from('same'), Buffer.from('same')])).toBeUndefined();
    expect(GzipTemplate.of([Buffer.from('alone')])).toBeUndefined();
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte));
    const withHole = (hole: string) => Buffer.concat([everyByte, Buffer.from(hole), everyByte]);
    expect(GzipTemplate.of([withHole('xyz'), withHole('abc')])).toBeUndefined();
  });

  it('gzips bodies by declared holes, copying the holes declared the same as an earlier one', () => {
    let gzipped = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 0, max: 2 })), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.string({ unit: 'grapheme', maxLength: 50 }),
        fc.integer({ min: 1, max: 40 }),
        (pieces, last, credentialBytes) => {
          // Each piece is followed by one of three credentials; a hole is the same as the last one of its credential.
          const bodyOf = (credentials: string[]) =>
            Buffer.from(pieces.map(([piece, which]) => piece + credentials[which]).join('') + last, 'utf8');
          const holes: Array<{ start: number; end: number; sameAs?: number }> = [];
          const lastOf = new Map<number, number>();
          let at = 0;
          for (const [piece, which] of pieces) {
            at += Buffer.byteLength(piece);
            const sameAs = lastOf.get(which);
            holes.push({ start: at, end: at + 2 * credentialBytes, ...(sameAs !== undefined && { sameAs }) });
            lastOf.set(which, holes.length - 1);
            at += 2 * credentialBytes;
          }
          const credentials = () => [hex(credentialBytes), hex(credentialBytes), hex(credentialBytes)];
          const template = GzipTemplate.ofHoles(bodyOf(credentials()), holes)!;
          // Each body in a buffer of its own, and again written into one kept buffer, as a layout's scratch copy is.
          const kept = Buffer.alloc(bodyOf(credentials()).length);
          for (let customer = 0; customer < 3; customer++) {
            const body = bodyOf(credentials());
            expect(gunzipSync(template.gzip(body)!).equals(body)).toBe(true);
            body.copy(kept);
            expect(gunzipSync(template.gzip(kept)!).equals(body)).toBe(true);
            gzipped++;
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(gzipped).toBeGreaterThan(300);

    // Thirty holes of one credential: copies of the first, a few bytes each instead of 36 and 5 more.
    const pieces = Array.from(
      { length: 30 },
      (_, index) => `\nproxy ${index}: {server: node${index}.example.com, id: `,
    );
    const holes = pieces.map((_, index) => {
      const start = pieces.slice(0, index + 1).join('').length + 36 * index;
      return { start, end: start + 36, ...(index > 0 && { sameAs: index - 1 }) };
    });
    const body = textOf([...pieces, ''], hex(18));
    const stored = GzipTemplate.ofHoles(
      body,
      holes.map(({ start, end }) => ({ start, end })),
    )!.gzip(body)!;
    const copied = GzipTemplate.ofHoles(body, holes)!.gzip(body)!;
    expect(execFileSync('gzip', ['--decompress', '--stdout'], { input: copied }).equals(body)).toBe(true);
    execFileSync('gzip', ['--test'], { input: stored });
    expect(stored.length - copied.length).toBeGreaterThan(28 * 29);
  });

  it('stores a declared repeat that a copy cannot reach, or of another length, and gives up on another length', () => {
    const far = Buffer.from(`id=${'a'.repeat(8)}${'x'.repeat(40_000)}id=${'a'.repeat(8)}.`);
    const farHoles = [
      { start: 3, end: 11 },
      { start: 40_014, end: 40_022, sameAs: 0 },
    ];
    const unequal = [
      { start: 3, end: 11 },
      { start: 14, end: 20, sameAs: 0 },
    ];
    const near = Buffer.from(`id=${'b'.repeat(8)}id=${'b'.repeat(6)}.`);
    for (const [body, holes] of [
      [far, farHoles],
      [near, unequal],
    ] as const) {
      const template = GzipTemplate.ofHoles(body, holes)!;
      expect(gunzipSync(template.gzip(body)!).equals(body)).toBe(true);
      expect(template.gzip(Buffer.concat([body, Buffer.from('!')]))).toBeUndefined();
    }
  });

  it('makes no template of no declared holes, or of a body that holds every byte value', () => {
    expect(GzipTemplate.ofHoles(Buffer.from('nothing varies'), [])).toBeUndefined();
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte));
    expect(
      GzipTemplate.ofHoles(Buffer.concat([everyByte, Buffer.from('xyz')]), [{ start: 256, end: 259 }]),
    ).toBeUndefined();
  });

  it('writes a stream that the gzip program reads, checksum and length included', () => {
    const pieces = Array.from(
      { length: 20 },
      (_, index) => `${'vless://'.repeat(index % 3)}@node${index}:443#名前 ${index}\n`,
    );
    const template = GzipTemplate.of([1, 2, 3].map(() => textOf(pieces, hex(18))))!;
    const body = textOf(pieces, hex(18));
    const gzip = template.gzip(body)!;
    expect(execFileSync('gzip', ['--decompress', '--stdout'], { input: gzip }).equals(body)).toBe(true);
    execFileSync('gzip', ['--test'], { input: gzip });
  });
});
