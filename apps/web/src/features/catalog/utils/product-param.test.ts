import { describe, expect, it } from 'vitest';
import { productOf, TRAFFIC_PLAN } from '../../../testing/fixtures';
import { decodeProduct, encodeProduct } from './product-param';

function standardBase64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

describe('product in the configure link', () => {
  it('round-trips a product as URL-safe base64, Chinese and Portuguese names included', () => {
    const product = { ...productOf(TRAFFIC_PLAN), pdName: '流量套餐 · Tráfego ção', content: '<p>ü→✓</p>' };
    const obj = encodeProduct(product);
    expect(obj).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeProduct(obj)).toEqual(product);
  });

  it('leaves out what is not part of the product (the plan id)', () => {
    const obj = encodeProduct(TRAFFIC_PLAN);
    expect(decodeProduct(obj)).toEqual(productOf(TRAFFIC_PLAN));
    expect(
      JSON.parse(
        new TextDecoder().decode(
          Uint8Array.from(atob(obj.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
        ),
      ),
    ).not.toHaveProperty('pdId');
  });

  it('reads plain base64 with padding too', () => {
    expect(decodeProduct(standardBase64(JSON.stringify(productOf(TRAFFIC_PLAN))))).toEqual(productOf(TRAFFIC_PLAN));
  });

  it.each([
    ['empty', ''],
    ['not base64', '%%%not-base64%%%'],
    ['not JSON', standardBase64('hello')],
    ['not a product', standardBase64(JSON.stringify({ pdName: 'Pro' }))],
    ['no package', standardBase64(JSON.stringify({ pdName: 'Pro', content: '', packages: [] }))],
    ['a bad package', standardBase64(JSON.stringify({ pdName: 'Pro', content: '', packages: [{ pkgId: 'x' }] }))],
    ['cut short', encodeProduct(TRAFFIC_PLAN).slice(0, 40)],
    ['not UTF-8', btoa('\xff\xfe{}')],
    ['JSON null', standardBase64('null')],
  ])('gives null for a link that is %s', (_name, obj) => {
    expect(decodeProduct(obj)).toBeNull();
  });
});
