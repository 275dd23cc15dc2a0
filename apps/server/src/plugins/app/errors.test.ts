import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../test/http-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

describe('a known path called with a method it does not take', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each([
    ['POST', '/mutenet/packages', 'GET, HEAD'],
    ['DELETE', '/mutenet/user/orders', 'GET, HEAD'],
    ['GET', '/mutenet/login', 'POST'],
    ['PUT', '/sub/some-token', 'GET, HEAD'],
    ['PATCH', '/healthz', 'GET, HEAD'],
  ])(
    'answers %s %s with the 405 envelope, in the language asked, and the methods it takes',
    async (method, path, allow) => {
      const response = await httpClient(app.url, { language: 'pt-BR' }).call(method, path);
      expect(response.status).toBe(405);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.body).toEqual({ code: 405, msg: MESSAGES.METHOD_NOT_ALLOWED['pt-BR'], data: null });
      expect(response.headers.get('allow')).toBe(allow);
    },
  );

  it('answers a path no route serves with the 404 envelope, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await httpClient(app.url, { language: 'en' }).call(method, '/mutenet/no-such-call');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 404, msg: MESSAGES.NOT_FOUND.en, data: null });
      expect(response.headers.get('allow')).toBeNull();
    }
  });
});
