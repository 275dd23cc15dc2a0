import { describe, expect, it } from 'vitest';
import { PushBodySchema, readNodeQuery } from './node-api.schema.js';

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

describe('readNodeQuery', () => {
  it('reads the node id as a number, with the token and node type when they come', () => {
    expect(readNodeQuery({ node_id: '7', token: 't', node_type: 'vless' })).toEqual({
      nodeId: 7,
      token: 't',
      nodeType: 'vless',
    });
    expect(readNodeQuery({ node_id: '123456789' })).toEqual({ nodeId: 123456789 });
    expect(
      readNodeQuery({ node_id: '1', token: 'x'.repeat(256), node_type: 'y'.repeat(32), other: 'kept out' }),
    ).toEqual({ nodeId: 1, token: 'x'.repeat(256), nodeType: 'y'.repeat(32) });
  });

  it('refuses anything else: no query, no or a bad node id, a repeated key, an overlong token or node type', () => {
    const refused: unknown[] = [
      undefined,
      null,
      'node_id=1',
      {},
      { token: 't' },
      { node_id: '' },
      { node_id: '1234567890' },
      { node_id: '-1' },
      { node_id: '1.5' },
      { node_id: ' 1' },
      { node_id: '1\n' },
      { node_id: '١' },
      { node_id: 1 },
      { node_id: ['1', '2'] },
      { node_id: '1', token: ['a', 'b'] },
      { node_id: '1', token: 'x'.repeat(257) },
      { node_id: '1', node_type: 'y'.repeat(33) },
      { node_id: '1', node_type: 5 },
    ];
    for (const query of refused) expect(readNodeQuery(query), JSON.stringify(query)).toBeUndefined();
  });
});
