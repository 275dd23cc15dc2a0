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
});
