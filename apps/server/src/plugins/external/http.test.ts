import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../test/http-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

describe('request ids', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers every request with the id its log lines carry', async () => {
    const { headers } = await httpClient(app.url).get('/healthz');
    const id = headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(app.logs.some((line) => JSON.parse(line).reqId === id)).toBe(true);
  });

  it("keeps a client's plain id and replaces anything else", async () => {
    const api = httpClient(app.url);
    const plain = await api.get('/healthz', { headers: { 'x-request-id': 'lb-1234.abc' } });
    expect(plain.headers.get('x-request-id')).toBe('lb-1234.abc');
    for (const hostile of ['<script>alert(1)</script>', 'x'.repeat(65), 'a b']) {
      const { headers } = await api.get('/healthz', { headers: { 'x-request-id': hostile } });
      expect(headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
