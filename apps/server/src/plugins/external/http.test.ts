import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../test/http-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import httpPlugin from './http.js';

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

describe('compression of answers made in memory', () => {
  let app: FastifyInstance;
  // 400 KB of JSON.
  const long = JSON.stringify({ users: Array.from({ length: 8000 }, (_, id) => ({ id, uuid: `user-${id}-uuid` })) });
  beforeAll(async () => {
    app = Fastify();
    await app.register(httpPlugin);
    app.get('/long', (_request, reply) => reply.type('application/json').send(long));
    app.get('/long-as-is', { compress: false }, (_request, reply) => reply.type('application/json').send(long));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('compresses a long answer in %s, to what decodes back to it', async (encoding, decode) => {
    const answer = await app.inject({ url: '/long', headers: { 'accept-encoding': encoding } });
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers.vary).toBe('accept-encoding');
    expect(answer.rawPayload.length).toBeLessThan(long.length / 4);
    expect(decode(answer.rawPayload).toString()).toBe(long);
  });

  it('sends it as it is to a client that takes no encoding, or from a route that says so', async () => {
    const plain = await app.inject({ url: '/long', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe(long);
    const asIs = await app.inject({ url: '/long-as-is', headers: { 'accept-encoding': 'br' } });
    expect(asIs.headers['content-encoding']).toBeUndefined();
    expect(asIs.payload).toBe(long);
  });
});
