import { describe, expect, it } from 'vitest';
import { PushBodySchema } from './node-api.schema.js';

describe('PushBodySchema', () => {
  it('takes what V2bX and XrayR push: user ids with two whole byte counts up to 2^50, one entry each', () => {
    expect(PushBodySchema.safeParse({})).toEqual({ success: true, data: [] });
    expect(PushBodySchema.safeParse({ '1': [0, 0] })).toEqual({
      success: true,
      data: [{ userId: 1, upload: 0, download: 0 }],
    });
    expect(PushBodySchema.safeParse({ '7': [1, 2], '4294967295': [2 ** 50, 0] })).toEqual({
      success: true,
      data: [
        { userId: 7, upload: 1, download: 2 },
        { userId: 4294967295, upload: 2 ** 50, download: 0 },
      ],
    });
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
