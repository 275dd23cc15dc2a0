import { describe, expect, it } from 'vitest';
import { loggableUrl, nameAsRead, queryNamesOf } from './log-url.js';

describe('loggableUrl', () => {
  it('replaces the subscription token and token query values, and keeps the rest', () => {
    expect(loggableUrl('/sub/abcDEF123_-?flag=clash')).toBe('/sub/:token?flag=clash');
    expect(loggableUrl('/api/v1/server/UniProxy/user?node_id=3&token=s3cret&node_type=vless')).toBe(
      '/api/v1/server/UniProxy/user?node_id=3&token=[redacted]&node_type=vless',
    );
    expect(loggableUrl('/x?TOKEN=a&key=b&api_key=c')).toBe('/x?TOKEN=[redacted]&key=[redacted]&api_key=[redacted]');
    expect(loggableUrl('/mutenet/user/orders?no=123')).toBe('/mutenet/user/orders?no=123');
  });

  it('replaces a path segment as long as a token anywhere, and keeps order numbers and shorter ids', () => {
    const token = 'kq1Jm8c0x_Z3uVh2pQeT9w-LrA7sYdN4oBfG6iK5Ejc';
    expect(loggableUrl(`/no/such/path/${token}`)).toBe('/no/such/path/:token');
    expect(loggableUrl(`/subscribe/${token}?flag=clash`)).toBe('/subscribe/:token?flag=clash');
    expect(loggableUrl(`/x/${token}/y`)).toBe('/x/:token/y');
    expect(loggableUrl('/payment/checkout/202608011200001234567890')).toBe(
      '/payment/checkout/202608011200001234567890',
    );
    expect(loggableUrl('/person/status/202608011200001234567890?x=1')).toBe(
      '/person/status/202608011200001234567890?x=1',
    );
  });

  it('replaces a secret however its name is written: escaped, bracketed, in capitals, or after a semicolon', () => {
    for (const name of ['%74oken', '%2574oken', 'to%6Ben', 'token[]', 'token%5B%5D', 'TOKEN', 'token+', 'api%5Fkey']) {
      expect(loggableUrl(`/api?node_id=1&${name}=s3cret&x=1`), name).toBe(`/api?node_id=1&${name}=[redacted]&x=1`);
    }
    expect(loggableUrl('/api?node_id=1;token=s3cret')).toBe('/api?node_id=1;token=[redacted]');
    expect(loggableUrl('/api?;token=s3cret&node_id=1')).toBe('/api?;token=[redacted]&node_id=1');
    expect(loggableUrl('/api?node_id=1&%ZZtoken=s3cret')).toBe('/api?node_id=1&%ZZtoken=[redacted]');
    expect(loggableUrl('/api?token')).toBe('/api?token=[redacted]');
  });
});

describe('queryNamesOf and nameAsRead', () => {
  it('give the names as they came, and as a lenient reader reads them', () => {
    expect(queryNamesOf('/api?node_id=1&%74oken=a;token[]=b&c')).toEqual(['node_id', '%74oken', 'token[]', 'c']);
    expect(queryNamesOf('/api')).toEqual([]);
    expect(['%74oken', 'token%5B%5D', ';token', ' TOKEN', '%2574oken'].map(nameAsRead)).toEqual(Array(5).fill('token'));
    expect(nameAsRead('node_id')).toBe('nodeid');
  });
});
