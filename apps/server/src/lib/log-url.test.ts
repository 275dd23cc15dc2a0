import { describe, expect, it } from 'vitest';
import { loggableUrl } from './log-url.js';

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
});
