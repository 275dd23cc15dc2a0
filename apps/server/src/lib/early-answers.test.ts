import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { EarlyAnswers } from './early-answers.js';

type Reached = { early: string[]; fastify: string[]; counted: Array<[string, string, number]> };

/** A server made by `serverFactory`, whose Fastify stand-in answers 299 and notes what reached it. */
async function serve(earlyAnswers: EarlyAnswers, reached: Reached) {
  const server = earlyAnswers.serverFactory(
    (request, response) => {
      reached.fastify.push(`${request.method} ${request.url}`);
      response.writeHead(299).end('fastify');
    },
    { keepAliveTimeout: 1234, requestTimeout: 5678, connectionTimeout: 0 },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const call = (method: string, path: string) =>
    new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const request = http.request({ port, host: '127.0.0.1', path, method, agent: false }, (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
      });
      request.on('error', reject);
      request.end();
    });
  return { server, call };
}

describe('early answers', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function setUp() {
    const reached: Reached = { early: [], fastify: [], counted: [] };
    const earlyAnswers = new EarlyAnswers({ trustProxy: false, requestId: () => 'an-id' });
    earlyAnswers.add('/answered', async ({ query }) => {
      reached.early.push(`answered ${JSON.stringify(query)}`);
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: `early ${query.x ?? ''}` };
    });
    earlyAnswers.add('/own-headers', async () => ({
      status: 200,
      headers: { 'cache-control': 'max-age=60', 'x-request-id': 'its-own' },
      body: 'own',
    }));
    earlyAnswers.add('/declined', async () => {
      reached.early.push('declined');
      return undefined;
    });
    earlyAnswers.add('/failing', async () => {
      reached.early.push('failing');
      throw new Error('the database is away');
    });
    earlyAnswers.add('/throwing', () => {
      reached.early.push('throwing');
      throw new Error('thrown before any promise');
    });
    earlyAnswers.addUnder('/under', '/under/:segment', async ({ path, ip }) => {
      reached.early.push(`under ${path} from ${ip()}`);
      return { status: 200, headers: {}, body: path.slice('/under/'.length) };
    });
    earlyAnswers.add('/unwritable', async () => {
      reached.early.push('unwritable');
      return { status: 200, headers: { 'x-bad': 'line\nbreak' }, body: 'never sent' };
    });
    // Answers given at once, not as promises.
    earlyAnswers.add('/at-once', ({ query }) => {
      reached.early.push('at once');
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: `at once ${query.x ?? ''}` };
    });
    earlyAnswers.add('/declined-at-once', () => {
      reached.early.push('declined at once');
      return undefined;
    });
    earlyAnswers.add('/unwritable-at-once', () => {
      reached.early.push('unwritable at once');
      return { status: 200, headers: { 'x-bad': 'line\nbreak' }, body: 'never sent' };
    });
    const { server, call } = await serve(earlyAnswers, reached);
    servers.push(server);
    const start = () =>
      earlyAnswers.start({
        log: pino({ level: 'silent' }),
        countRequest: (method, route, status) => reached.counted.push([method, route, status]),
      });
    return { earlyAnswers, reached, call, server, start };
  }

  it('sets on its server what Fastify sets on its own', async () => {
    const { server } = await setUp();
    expect(server.keepAliveTimeout).toBe(1234);
    expect(server.requestTimeout).toBe(5678);
  });

  it('answers a GET of its exact path with its query, with the default headers, and counts it', async () => {
    const { reached, call, start } = await setUp();
    start();
    const answer = await call('GET', '/answered?x=1&x=2&y');
    expect(answer).toMatchObject({ status: 200, body: 'early 1,2' });
    expect(answer.headers).toMatchObject({
      'x-request-id': 'an-id',
      'cache-control': 'no-store',
      'content-length': '9',
    });
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(reached.early).toEqual(['answered {"x":["1","2"],"y":""}']);
    expect(reached.counted).toEqual([['GET', '/answered', 200]]);
    expect(reached.fastify).toEqual([]);
  });

  it('answers at once what its answer gives at once, as it answers a promised one', async () => {
    const { reached, call, start } = await setUp();
    start();
    const answer = await call('GET', '/at-once?x=1');
    expect(answer).toMatchObject({ status: 200, body: 'at once 1' });
    expect(answer.headers).toMatchObject({ 'x-request-id': 'an-id', 'content-length': '9' });
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(reached.early).toEqual(['at once']);
    expect(reached.counted).toEqual([['GET', '/at-once', 200]]);
    expect(reached.fastify).toEqual([]);
  });

  it('sends each header once, an answer’s own in place of the default or the request id', async () => {
    const { call, start } = await setUp();
    start();
    const { headers } = await call('GET', '/own-headers');
    // Two of one name would reach the client joined by a comma.
    expect(headers).toMatchObject({ 'cache-control': 'max-age=60', 'x-request-id': 'its-own', 'content-length': '3' });
    expect(headers['x-frame-options']).toBe('DENY');
  });

  it('leaves to Fastify what it declines, fails on or cannot write, other methods and paths, and all before start or once closing', async () => {
    const { earlyAnswers, reached, call, start } = await setUp();
    expect((await call('GET', '/answered')).status).toBe(299);
    start();
    for (const [method, path] of [
      ['GET', '/declined'],
      ['GET', '/failing?x=1'],
      ['GET', '/throwing'],
      ['GET', '/unwritable'],
      ['GET', '/declined-at-once'],
      ['GET', '/unwritable-at-once'],
      ['POST', '/answered'],
      ['HEAD', '/answered'],
      ['GET', '/answered/'],
      ['GET', '/elsewhere'],
    ] as const) {
      expect((await call(method, path)).status, `${method} ${path}`).toBe(299);
    }
    earlyAnswers.close();
    expect((await call('GET', '/answered')).status).toBe(299);
    expect(reached.early).toEqual([
      'declined',
      'failing',
      'throwing',
      'unwritable',
      'declined at once',
      'unwritable at once',
    ]);
    expect(reached.fastify).toEqual([
      'GET /answered',
      'GET /declined',
      'GET /failing?x=1',
      'GET /throwing',
      'GET /unwritable',
      'GET /declined-at-once',
      'GET /unwritable-at-once',
      'POST /answered',
      'HEAD /answered',
      'GET /answered/',
      'GET /elsewhere',
      'GET /answered',
    ]);
    expect(reached.counted).toEqual([]);
  });

  it('answers a GET of one segment under its prefix, as it is in the URL, counted under its route', async () => {
    const { reached, call, start } = await setUp();
    start();
    expect(await call('GET', '/under/a%20b?x=1')).toMatchObject({ status: 200, body: 'a%20b' });
    for (const path of ['/under', '/under/', '/under/a/b', '/under/a/', '/underneath/a', '/answered/a']) {
      expect((await call('GET', path)).status, path).toBe(299);
    }
    expect(reached.early).toEqual(['under /under/a%20b from 127.0.0.1']);
    expect(reached.counted).toEqual([['GET', '/under/:segment', 200]]);
    expect(reached.fastify).toEqual([
      'GET /under',
      'GET /under/',
      'GET /under/a/b',
      'GET /under/a/',
      'GET /underneath/a',
      'GET /answered/a',
    ]);
  });

  it('refuses a second early answer for one path or prefix', async () => {
    const { earlyAnswers } = await setUp();
    expect(() => earlyAnswers.add('/answered', async () => undefined)).toThrow(/already/);
    expect(() => earlyAnswers.addUnder('/under', '/under/:other', async () => undefined)).toThrow(/already/);
  });
});
