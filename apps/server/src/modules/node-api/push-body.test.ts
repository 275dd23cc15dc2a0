import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PushBodySchema } from './node-api.schema.js';
import { MAX_BYTES, type PushedTraffic, readPushBody } from './push-body.js';

/** What the general path makes of a body: JSON.parse, then the schema; undefined where either refuses it. */
function generalPath(text: string): PushedTraffic[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const result = PushBodySchema.safeParse(parsed);
  return result.success ? result.data : undefined;
}

const byUser = (entries: PushedTraffic[]) => [...entries].sort((a, b) => a.userId - b.userId);

/** Where the reader answers, it answers as the general path; it may only pass a body on to it. */
function expectSameAsGeneral(text: string) {
  const read = readPushBody(Buffer.from(text, 'utf8'));
  if (read) expect(byUser(read.entries), text).toEqual(byUser(generalPath(text) ?? []));
  if (read) expect(generalPath(text), text).toBeDefined();
}

const userId = fc.oneof(fc.integer({ min: 0, max: 9_999_999_999 }), fc.integer({ min: 0, max: 300 }));
const bytes = fc.oneof(fc.integer({ min: 0, max: MAX_BYTES }), fc.integer({ min: 0, max: 2000 }));
const report = fc.uniqueArray(fc.tuple(userId, bytes, bytes), { selector: ([id]) => id, maxLength: 60 });
const space = fc.constantFrom('', ' ', '\n', '\t', '\r\n', '  ');

/** A body as an agent could write it: users in numeric, text or any order, with any JSON whitespace. */
const written = fc
  .tuple(report, fc.constantFrom('numeric', 'text', 'as generated'), space, space)
  .map(([users, order, outer, inner]) => {
    const sorted = [...users];
    if (order === 'numeric') sorted.sort((a, b) => a[0] - b[0]);
    if (order === 'text') sorted.sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
    const pairs = sorted.map(
      ([id, up, down]) => `${inner}"${id}"${inner}:${inner}[${inner}${up}${inner},${inner}${down}${inner}]${inner}`,
    );
    return `${outer}{${pairs.join(',')}${inner}}${outer}`;
  });

/** Edits that take a body out of the common form, or out of JSON. */
const edits: Array<(text: string) => string> = [
  (text) => text.replace(/"(\d+)"/, '"$1","0":[1,1],"$1"'),
  (text) => text.replace(/"(\d+)":/, '"0$1":'),
  (text) => text.replace(/\[(\d+),/, '[$1.0,'),
  (text) => text.replace(/\[(\d+),/, '[$1e0,'),
  (text) => text.replace(/\[(\d+),/, '[-$1,'),
  (text) => text.replace(/\[(\d+),/, '[$1000000000000000,'),
  (text) => text.replace(/"(\d)/, '"\\u003$1'),
  (text) => text.replace(/]/, ',1]'),
  (text) => text.replace(/]/, ''),
  (text) => text.replace('}', '},'),
  (text) => `${text}x`,
  (text) => `\uFEFF${text}`,
  (text) => text.replace(/"(\d+)"/, '"$1 "'),
  (text) => text.replace(/\[/, '[null,'),
  (text) => text.replace(/:/, '::'),
  (text) => text.slice(0, -1),
];

describe('readPushBody', () => {
  it('reads every body in the common form, as the general path does', () => {
    fc.assert(
      fc.property(written, (text) => {
        const read = readPushBody(Buffer.from(text, 'utf8'));
        expect(read, text).toBeDefined();
        expectSameAsGeneral(text);
      }),
      { numRuns: 500 },
    );
  });

  it('answers any edited body as the general path does, or leaves it to it', () => {
    fc.assert(
      fc.property(written, fc.constantFrom(...edits), (text, edit) => expectSameAsGeneral(edit(text))),
      { numRuns: 1000 },
    );
  });

  it('leaves to the general path a user twice, in whatever order the ids come', () => {
    for (const text of [
      '{"1":[1,1],"1":[2,2]}',
      '{"1":[1,1],"2":[1,1],"1":[3,3]}',
      '{"2":[1,1],"10":[1,1],"2":[3,3]}',
      '{"10":[1,1],"2":[1,1],"10":[3,3]}',
      '{"5":[1,1],"3":[1,1],"9":[1,1],"3":[2,2]}',
    ]) {
      expect(readPushBody(Buffer.from(text)), text).toBeUndefined();
      // JSON keeps the last of a key: the general path counts each user once.
      expect(new Set(generalPath(text)?.map((entry) => entry.userId)).size).toBe(generalPath(text)?.length);
    }
    expect(readPushBody(Buffer.from('{"5":[1,1],"3":[1,1],"9":[1,1],"4":[2,2]}'))?.entries).toHaveLength(4);
  });

  it('reads the empty report, and nothing that is not an object', () => {
    expect(readPushBody(Buffer.from(' { } '))?.entries).toEqual([]);
    for (const text of ['', '[]', '[[1,2]]', 'null', '7', '"x"', '{', '{"1":[1,2]']) {
      expect(readPushBody(Buffer.from(text)), text).toBeUndefined();
    }
  });
});
