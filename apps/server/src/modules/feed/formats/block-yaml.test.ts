import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { toBlockYaml, type YamlValue } from './block-yaml.js';

const key = fc.oneof(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,12}$/), fc.string({ maxLength: 8 }));
const scalar = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('true', '1.5', 'null', '- x', '#', 'a: b', '"', '\\', '\u0085', '\u2028', '\ufeff', '\u007f'),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const { map } = fc.letrec<{ map: Record<string, YamlValue>; value: YamlValue }>((tie) => ({
  map: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(fc.oneof(scalar, tie('map')), { maxLength: 4 }),
    tie('map'),
  ),
}));

/** The `yaml` package with the options the Clash profile was written with before: the layout to keep. */
const byYamlPackage = (document: Record<string, YamlValue>) =>
  stringify(document, {
    defaultStringType: 'QUOTE_DOUBLE',
    defaultKeyType: 'PLAIN',
    doubleQuotedAsJSON: true,
    lineWidth: 0,
  });

describe('toBlockYaml', () => {
  it('reads back as the same data with a YAML 1.2 reader, for any data', () => {
    fc.assert(
      fc.property(map, (document) => {
        expect(parse(toBlockYaml(document))).toEqual(parse(JSON.stringify(document)));
      }),
      { numRuns: 400 },
    );
  });

  it('lays out printable data exactly as the yaml package does', () => {
    const printable = fc.dictionary(
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,12}$/),
      fc.oneof(
        fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
        fc.integer(),
        fc.boolean(),
        fc.array(fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), { maxLength: 3 }),
        fc.dictionary(fc.stringMatching(/^[a-z][a-z-]{0,8}$/), fc.integer(), { maxKeys: 3 }),
      ),
    );
    fc.assert(
      fc.property(fc.array(printable, { maxLength: 3 }), printable, (list, extra) => {
        const document = { list, ...extra, tail: 'end' };
        expect(toBlockYaml(document)).toBe(byYamlPackage(document));
      }),
      { numRuns: 300 },
    );
  });

  it('escapes what a YAML stream may not hold, and refuses what it cannot write', () => {
    expect(toBlockYaml({ name: 'a\u0085b\u007f\ufeff' })).toBe('name: "a\\u0085b\\u007f\\ufeff"\n');
    expect(toBlockYaml({ 'odd key': [], empty: {}, unset: { gone: undefined } })).toBe(
      '"odd key": []\nempty: {}\nunset: {}\n',
    );
    expect(toBlockYaml({ gone: undefined })).toBe('{}\n');
    expect(() => toBlockYaml({ port: Number.NaN })).toThrow(/not a YAML number/);
    expect(() => toBlockYaml({ nested: [['x']] })).toThrow(/list directly inside a list/);
  });
});
