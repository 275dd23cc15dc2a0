/**
 * Child process: the baseline, a bare `node:http` server answering whatever the parent set last (status, headers,
 * body: the bytes the app answered to the same request). It reads the request body to the end before answering, as
 * any server must, and does nothing else.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ChildRequest } from './ipc.js';

let answer = { status: 200, headers: {} as Record<string, string | string[]>, body: Buffer.alloc(0) };
const server = http.createServer((request, response) => {
  request.on('data', () => {});
  request.on('end', () => {
    response.writeHead(answer.status, answer.headers);
    response.end(answer.status === 304 ? undefined : answer.body);
  });
});
server.keepAliveTimeout = 72_000;

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

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
});
