import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Crc32OfHoles } from './crc32-holes.js';

describe('Crc32OfHoles', () => {
  it('gives the CRC-32 of any body that differs from the sample only in its holes, as zlib computes it', () => {
    let worked = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 0, max: 70_000 }).map((bytes) => randomBytes(bytes)),
        fc.integer({ min: 1, max: 64 }),
        (pieces, last, holeBytes) => {
          // Each piece is followed by one of four texts, the same in each of its holes: a group.
          const bodyOf = (texts: Buffer[]) =>
            Buffer.concat([...pieces.flatMap(([piece, which]) => [piece, texts[which]!]), last]);
          const holes: Array<{ start: number; end: number }> = [];
          const group: number[] = [];
          const firstOf = new Map<number, number>();
          let at = 0;
          for (const [piece, which] of pieces) {
            at += piece.length;
            holes.push({ start: at, end: at + holeBytes });
            group.push(firstOf.get(which) ?? holes.length - 1);
            if (!firstOf.has(which)) firstOf.set(which, holes.length - 1);
            at += holeBytes;
          }
          const texts = () => Array.from({ length: 4 }, () => randomBytes(holeBytes));
          const crc = Crc32OfHoles.of(bodyOf(texts()), holes, group);
          if (!crc) return;
          worked++;
          for (let customer = 0; customer < 3; customer++) {
            const body = bodyOf(texts());
            expect(crc.of(body)).toBe(crc32(body));
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(worked).toBeGreaterThan(50);
  });

  it('gives none where the whole body costs less: many groups of holes in a short body', () => {
    const sample = randomBytes(14_000);
    const holes = Array.from({ length: 50 }, (_, index) => ({ start: index * 280, end: index * 280 + 56 }));
    const eachAlone = holes.map((_, index) => index);
    const allTogether = holes.map(() => 0);
    expect(Crc32OfHoles.of(sample, holes, eachAlone)).toBeUndefined();
    expect(Crc32OfHoles.of(sample, holes, allTogether)).toBeDefined();
  });

  it('takes each hole alone that is in a group of its own, and holes of any length and place', () => {
    const sample = randomBytes(50_000);
    const holes = [
      { start: 0, end: 1 },
      { start: 10, end: 300 },
      { start: 49_000, end: 50_000 },
    ];
    const crc = Crc32OfHoles.of(sample, holes, [0, 1, 2])!;
    expect(crc.of(sample)).toBe(crc32(sample));
    for (let body = 0; body < 20; body++) {
      const changed = Buffer.from(sample);
      for (const { start, end } of holes) randomBytes(end - start).copy(changed, start);
      expect(crc.of(changed)).toBe(crc32(changed));
    }
  });
});
