import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from './test-app.js';

/** Headers that belong to the connection or the moment, not to the answer. */
const OF_THE_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

export type ComparableAnswer = { status: number; headers: Record<string, string>; body: Buffer };

/** A request over HTTP with these headers only, and its answer's bytes as they came. */
export function request(url: string, headers: Record<string, string>, method = 'GET'): Promise<ComparableAnswer> {
  return new Promise((resolve, reject) => {
    const sent = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: answerHeaders(response.headers),
          body: Buffer.concat(chunks),
        }),
      );
    });
    sent.on('error', reject);
    sent.end();
  });
}

function answerHeaders(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !OF_THE_CONNECTION.has(name))
      .map(([name, value]) => [name, String(value)]),
  );
}

/**
 * Counts the requests Fastify routes under `prefix`: those an early answer (lib/early-answers.ts) took never reach
 * its hooks. `hook` goes to `startTestApp`'s `beforeListen`.
 */
export function routedUnder(prefix: string) {
  const counter = {
    routed: 0,
    hook: (app: FastifyInstance) =>
      app.addHook('onRequest', (request, _reply, done) => {
        if (request.url.startsWith(prefix)) counter.routed++;
        done();
      }),
  };
  return counter;
}

/**
 * The same GET over HTTP (to the early answer, if it takes it) and through Fastify alone (`inject`), and how many
 * of the HTTP one Fastify routed: an early answer is held to the one the route gives.
 */
export async function bothWays(
  app: TestApp,
  counter: { routed: number },
  path: string,
  headers: Record<string, string>,
): Promise<{ routedByHttp: number; early: ComparableAnswer; route: ComparableAnswer }> {
  const before = counter.routed;
  const early = await request(`${app.url}${path}`, headers);
  const routedByHttp = counter.routed - before;
  const route = await app.app.inject({ method: 'GET', url: path, headers });
  return {
    routedByHttp,
    early,
    route: { status: route.statusCode, headers: answerHeaders(route.headers), body: route.rawPayload },
  };
}

/** The log lines of one request (by its `x-request-id`) written since the log held `from` lines. */
export function requestLogLines(app: TestApp, from: number, requestId: string): Array<Record<string, unknown>> {
  return app.logs
    .slice(from)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.reqId === requestId);
}
