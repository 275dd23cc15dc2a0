import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EMPTY_INPUT, FIXTURE_INPUT } from './__fixtures__/feed-input.js';
import type { FeedInput } from './feed-format.js';
import { FEED_FORMAT_NAMES } from './feed-format.js';
import { renderClash } from './formats/clash.js';
import { renderShareLinks } from './formats/share-links.js';
import { renderSingBox } from './formats/sing-box.js';
import { FEED_FORMATS, feedFilename, feedHeaders } from './registry.js';

const OPTIONS = { filename: 'Mutenet ✨.yaml', updateIntervalHours: 12 };

describe('FEED_FORMATS', () => {
  it('maps every format to its renderer and extension', () => {
    expect(Object.keys(FEED_FORMATS).sort()).toEqual([...FEED_FORMAT_NAMES].sort());
    expect(FEED_FORMATS['share-links'].render(FIXTURE_INPUT, {})).toEqual(renderShareLinks(FIXTURE_INPUT));
    expect(FEED_FORMATS.clash.render(FIXTURE_INPUT, {})).toEqual(renderClash(FIXTURE_INPUT));
    expect(FEED_FORMATS['sing-box'].render(FIXTURE_INPUT, { singBoxVersion: { major: 1, minor: 10 } })).toEqual(
      renderSingBox(FIXTURE_INPUT, { major: 1, minor: 10 }),
    );
    expect(Object.fromEntries(Object.entries(FEED_FORMATS).map(([name, f]) => [name, f.fileExtension]))).toEqual({
      'share-links': 'txt',
      clash: 'yaml',
      'sing-box': 'json',
    });
  });

  it('renders a valid, empty feed of every format for a user without nodes', () => {
    expect(FEED_FORMATS['share-links'].render(EMPTY_INPUT, {}).body).toBe('');
    expect(parse(FEED_FORMATS.clash.render(EMPTY_INPUT, {}).body).proxies).toEqual([]);
    expect(JSON.parse(FEED_FORMATS['sing-box'].render(EMPTY_INPUT, {}).body).outbounds).toHaveLength(2);
  });
});

describe('feedHeaders', () => {
  it('writes exactly the four headers, in the form clients parse', () => {
    expect(feedHeaders(FIXTURE_INPUT, OPTIONS)).toEqual({
      'subscription-userinfo': 'upload=1073741824; download=5368709120; total=107374182400; expire=1767225600',
      'profile-update-interval': '12',
      'content-disposition': `attachment; filename="Mutenet _.yaml"; filename*=UTF-8''Mutenet%20%E2%9C%A8.yaml`,
      'profile-title': `base64:${Buffer.from('Mutenet ✨').toString('base64')}`,
    });
  });

  it('parses back: integers, no trailing semicolon, expire=0 when there is none', () => {
    const headers = feedHeaders(EMPTY_INPUT, OPTIONS);
    const userinfo = headers['subscription-userinfo']!;
    expect(userinfo).toBe('upload=10; download=20; total=30; expire=0');
    expect(userinfo.endsWith(';')).toBe(false);
    const fields = Object.fromEntries(userinfo.split('; ').map((pair) => pair.split('=') as [string, string]));
    expect(Object.keys(fields)).toEqual(['upload', 'download', 'total', 'expire']);
    for (const value of Object.values(fields)) expect(value).toMatch(/^\d+$/);
  });

  it('writes whole numbers, never fractions, negatives or exponents', () => {
    const odd: FeedInput = {
      ...EMPTY_INPUT,
      usage: { upload: 1.9, download: -5, total: 1e21, expire: Number.NaN },
    };
    expect(feedHeaders(odd, { filename: 'x', updateIntervalHours: 0.2 })).toMatchObject({
      'subscription-userinfo': 'upload=1; download=0; total=1000000000000000000000; expire=0',
      'profile-update-interval': '1',
    });
    expect(feedHeaders(odd, { filename: 'x', updateIntervalHours: 23.6 })['profile-update-interval']).toBe('24');
    // Above 2^53, every digit of the number's value, not its shortest form (1152921504606847000).
    const large = { ...odd, usage: { ...odd.usage, total: 2 ** 60 } };
    expect(feedHeaders(large, { filename: 'x', updateIntervalHours: 1 })['subscription-userinfo']).toBe(
      'upload=1; download=0; total=1152921504606846976; expire=0',
    );
  });

  it('carries a UTF-8 file name and an ASCII fallback that cannot break the quoted string', () => {
    const header = feedHeaders(FIXTURE_INPUT, { filename: 'Sub "中文"\\ (1)\'*.json', updateIntervalHours: 1 })[
      'content-disposition'
    ]!;
    expect(header).toBe(
      `attachment; filename="Sub _____ (1)'*.json"; filename*=UTF-8''Sub%20%22%E4%B8%AD%E6%96%87%22%5C%20%281%29%27%2A.json`,
    );
    const encoded = /filename\*=UTF-8''(.+)$/.exec(header)![1]!;
    expect(encoded).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
    expect(decodeURIComponent(encoded)).toBe('Sub "中文"\\ (1)\'*.json');
  });

  it('keeps control characters out of every header', () => {
    const hostile: FeedInput = { ...FIXTURE_INPUT, title: 'Evil\r\nSet-Cookie: a=b' };
    const headers = feedHeaders(hostile, { filename: 'a\r\nb.txt', updateIntervalHours: 1 });
    for (const value of Object.values(headers)) expect(value).not.toMatch(/[\r\n]/);
    expect(Buffer.from(headers['profile-title']!.slice('base64:'.length), 'base64').toString()).toBe(
      'EvilSet-Cookie: a=b',
    );
  });
});

describe('feedFilename', () => {
  it('is the title with the format’s extension, without path characters', () => {
    expect(feedFilename('Mutenet ✨', 'clash')).toBe('Mutenet ✨.yaml');
    expect(feedFilename('a/b\\c:d', 'sing-box')).toBe('a_b_c_d.json');
    expect(feedFilename('  ', 'share-links')).toBe('subscription.txt');
  });
});
