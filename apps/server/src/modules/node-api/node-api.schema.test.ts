import { describe, expect, it } from 'vitest';
import { PushBodySchema } from './node-api.schema.js';

describe('PushBodySchema', () => {
  it('takes what V2bX and XrayR push: user ids with two whole byte counts up to 2^50', () => {
    for (const body of [{}, { '1': [0, 0] }, { '7': [1, 2], '4294967295': [2 ** 50, 0] }]) {
      expect(PushBodySchema.safeParse(body), JSON.stringify(body)).toEqual({ success: true, data: body });
    }
  });

  it('refuses any other shape', () => {
    const refused: unknown[] = [
      null,
      'x',
      7,
      [],
      [[1, 2]],
      { '1': [1] },
      { '1': [1, 2, 3] },
      { '1': null },
      { '1': { 0: 1, 1: 2, length: 2 } },
      { '1': ['1', '2'] },
      { '1': [true, 1] },
      { '1': [1, null] },
      { '1': [-1, 1] },
      { '1': [1.5, 1] },
      { '1': [2 ** 50 + 1, 1] },
      { '1': [1, Number.POSITIVE_INFINITY] },
      { '1': [1, Number.NaN] },
      { abc: [1, 1] },
      { '': [1, 1] },
      { '-1': [1, 1] },
      { '1.5': [1, 1] },
      { '12345678901': [1, 1] },
      { '01': [1, 1] },
      { '1': [1, 1], '001': [1, 1] },
      { '1': [1, 1], x: [1, 1] },
    ];
    for (const body of refused) expect(PushBodySchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
  });
});
