import { messageOf } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../test/catalog.js';
import { bothWays, request, requestLogLines, routedUnder } from '../../test/early-answers.js';
import { parseExposition, sampleValue } from '../../test/metrics.js';
import { addNodes, customerWithPackage } from '../../test/subscription.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { NODE_API_PREFIX } from './node-api.routes.js';

// An agent's pulls of its config and of the user list are answered before Fastify routes them when their answer
// needs nothing of its hooks (lib/early-answers.ts). The test counts the requests Fastify routed to the node API, and
// holds each early answer to the one the route gives the same request (`inject` goes through Fastify alone).
describe.each(DATABASES)("an agent's pulls answered before routing, on %s", (database) => {
  let app: TestApp;
  let node: Awaited<ReturnType<typeof addNodes>>[number];
  const counter = routedUnder(NODE_API_PREFIX);
  const url = (path: 'config' | 'user', token = node.token) =>
    `${NODE_API_PREFIX}/${path}?node_id=${node.id}&node_type=${node.protocol}&token=${encodeURIComponent(token)}`;

  beforeAll(async () => {
    app = await startTestApp({ database, beforeListen: counter.hook });
    const seeded = await seedCatalog(app);
    [node] = (await addNodes(app)) as [typeof node];
    // Enough customers for a list of more than 1 KB, which goes compressed unless it is already.
    for (let index = 0; index < 16; index++) {
      await customerWithPackage(app, `early${index}.${database}@example.com`, seeded.traffic30);
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each([
    ['over plain HTTP', {}],
    ['behind the trusted proxy over HTTPS (HSTS)', { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' }],
  ])(
    'answers the 304 and the gzipped user list, and the config and its 304, as the route does, %s',
    async (_, extra) => {
      const first = await app.app.inject({ method: 'GET', url: url('user') });
      const listTag = String(first.headers.etag);
      const configTag = String((await app.app.inject({ method: 'GET', url: url('config') })).headers.etag);
      const cases = [
        { path: url('user'), headers: { 'if-none-match': listTag }, status: 304 },
        { path: url('user'), headers: { 'accept-encoding': 'gzip' }, status: 200 },
        { path: url('config'), headers: {}, status: 200 },
        { path: url('config'), headers: { 'if-none-match': configTag }, status: 304 },
      ];
      for (const { path, headers, status } of cases as Array<{
        path: string;
        headers: Record<string, string>;
        status: number;
      }>) {
        const { routedByHttp, early, route } = await bothWays(app, counter, path, {
          ...extra,
          ...headers,
          'x-request-id': 'pull-1',
        });
        expect(routedByHttp, path).toBe(0);
        expect(early.status).toBe(status);
        expect(early).toEqual(route);
        expect(early.headers['x-request-id']).toBe('pull-1');
        expect(early.headers['strict-transport-security'] !== undefined).toBe('x-forwarded-proto' in extra);
      }
    },
  );

  it('leaves to the route a refused call, a list that wants compressing, and anything but GET', async () => {
    const listTag = String((await app.app.inject({ method: 'GET', url: url('user') })).headers.etag);
    const cases = [
      { path: url('user', 'wrong-token'), headers: { 'if-none-match': listTag }, status: 403 },
      { path: url('config', 'wrong-token'), headers: {}, status: 403 },
      { path: url('user'), headers: { 'if-none-match': '"an-old-list"', 'accept-encoding': 'br' }, status: 200 },
      { path: url('user'), headers: { 'accept-encoding': 'identity' }, status: 200 },
      { path: `${NODE_API_PREFIX}/user?node_id=x`, headers: { 'if-none-match': listTag }, status: 403 },
    ];
    for (const { path, headers, status } of cases as Array<{
      path: string;
      headers: Record<string, string>;
      status: number;
    }>) {
      const { routedByHttp, early, route } = await bothWays(app, counter, path, {
        ...headers,
        'accept-language': 'en',
      });
      expect(routedByHttp, path).toBe(1);
      expect(early.status, path).toBe(status);
      expect(early.headers['content-encoding'], path).toBe(route.headers['content-encoding']);
      expect(early.body.length, path).toBeGreaterThan(0);
    }
    const refused = await request(`${app.url}${url('config', 'wrong-token')}`, { 'accept-language': 'en' });
    expect(JSON.parse(refused.body.toString())).toEqual({ code: 403, msg: messageOf('FORBIDDEN', 'en'), data: null });
    const before = counter.routed;
    const head = await request(`${app.url}${url('config')}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(counter.routed - before).toBe(1);
  });

  it('counts its answers in the metrics and logs them as Fastify does, without the token', async () => {
    const listTag = String((await app.app.inject({ method: 'GET', url: url('user') })).headers.etag);
    const labels = { method: 'GET', route: `${NODE_API_PREFIX}/user`, status: '304' };
    const countOf = async () =>
      sampleValue(parseExposition(await app.app.metrics.render()), 'mutenet_http_requests_total', labels);
    const before = await countOf();
    const routedBefore = counter.routed;
    const logsBefore = app.logs.length;
    const answer = await request(`${app.url}${url('user')}`, {
      'if-none-match': listTag,
      'x-request-id': 'pull-logged',
    });
    expect(answer.status).toBe(304);
    expect(counter.routed).toBe(routedBefore);
    expect(await countOf()).toBe(before + 1);
    const lines = requestLogLines(app, logsBefore, 'pull-logged');
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    const [incoming, completed] = lines as [{ req: Record<string, unknown> }, Record<string, unknown>];
    expect(incoming.req).toMatchObject({ method: 'GET', remoteAddress: '127.0.0.1' });
    expect(String(incoming.req.url)).toContain(`${NODE_API_PREFIX}/user?`);
    expect(completed.res).toEqual({ statusCode: 304 });
    expect(typeof completed.responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain(node.token);
  });
});
