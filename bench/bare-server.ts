/**
 * Child process: a baseline answering whatever the parent set last (status, headers, body: the bytes the app answered
 * to the same request). It reads the request body to the end before answering, as any server must, and does nothing
 * else. By default a bare `node:http` server, the limit for a Node server on this machine; with
 * `BENCH_FRAMEWORK=fastify`, one Fastify route with no plugin, hook or schema, the floor that Fastify itself sets.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { keepTickObjectMaps } from '../apps/server/dist/lib/tick-object-maps.js';
import type { ChildRequest } from './ipc.js';

// As the app does (lib/tick-object-maps.ts): a limit for a Node server is one that keeps nextTick's maps too.
keepTickObjectMaps();

let answer = { status: 200, headers: {} as Record<string, string | string[]>, body: Buffer.alloc(0) };

async function listen(): Promise<http.Server> {
  if (process.env.BENCH_FRAMEWORK === 'fastify') {
    const app = Fastify({ logger: false });
    // Fastify reads a body it has a parser for; any other it leaves unread, so read every one as a buffer.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    app.all('/*', (_request, reply) => {
      reply.code(answer.status).headers(answer.headers);
      return reply.send(answer.status === 304 ? undefined : answer.body);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    app.server.keepAliveTimeout = 72_000;
    return app.server;
  }
  const server = http.createServer((request, response) => {
    request.on('data', () => {});
    request.on('end', () => {
      response.writeHead(answer.status, answer.headers);
      response.end(answer.status === 304 ? undefined : answer.body);
    });
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const server = await listen();

process.on('message', (message: ChildRequest) => {
  const reply = (body: unknown) => process.send?.({ id: message.id, body });
  if (message.type === 'answer') {
    const body = Buffer.from(message.body, 'base64');
    const length: Record<string, string> = message.status === 304 ? {} : { 'content-length': String(body.length) };
    answer = { status: message.status, headers: { ...message.headers, ...length }, body };
    reply(null);
  } else if (message.type === 'stats') {
    reply({
      statements: 0,
      userStatements: 0,
      nodeStatements: 0,
      usableUsers: 0,
      cpu: process.cpuUsage(),
      memory: process.memoryUsage(),
      at: performance.now(),
    });
  } else if (message.type === 'close') {
    server.closeAllConnections();
    server.close(() => {
      reply(null);
      process.disconnect();
    });
  }
});

const address = server.address();
process.send?.({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
