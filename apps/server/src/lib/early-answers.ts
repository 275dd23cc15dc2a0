import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parse as parseQuery } from 'fast-querystring';
import type { FastifyBaseLogger } from 'fastify';
import { COMPRESS_FROM_BYTES } from './compression.js';
import { clientIp, protocolOf } from './forwarded.js';
import type { MaybePromise } from './maybe-promise.js';
import { defaultHeaderPairsFor } from './security-headers.js';

/**
 * An early answer's request: as it came, its path without the query, the query parsed as Fastify parses it, and the
 * client's address as Fastify's `request.ip` reads it (worked out when asked: most answers do not).
 */
export type EarlyRequest = {
  raw: IncomingMessage;
  path: string;
  query: Record<string, unknown>;
  ip(): string | undefined;
};

/** An answer as it is written: its status, the route's own headers, and a body short enough to go uncompressed. */
export type Answer = { status: number; headers: Readonly<Record<string, string>>; body?: string | Buffer };

/**
 * The answer to a request, or undefined to leave the request to Fastify, which then answers it in full (an error
 * in the user's language, an answer to compress); given at once when it is, else as a promise. Whatever it does must
 * be safe to do again on the way there, or be done through `oncePerRequest`.
 */
export type EarlyAnswer = (request: EarlyRequest) => MaybePromise<Answer | undefined>;

/** An answer that needs nothing of Fastify's hooks: nothing to send, or a body already compressed or too short to be. */
export function goesAsIs({ headers, body }: Answer): boolean {
  return (
    body === undefined || headers['content-encoding'] !== undefined || Buffer.byteLength(body) < COMPRESS_FROM_BYTES
  );
}

/**
 * `work` done at most once for a request, by whichever of its early answer and its route asks first: what must not be
 * done twice (counting it against a limit) when an early answer leaves the request to the route.
 */
export function oncePerRequest<Args extends unknown[], T>(
  work: (...args: Args) => T,
): (raw: IncomingMessage, ...args: Args) => T {
  // Kept on the request under a key of this work's own, and gone with it: a WeakMap's entry cost more to make.
  const done = Symbol('done once');
  return (raw, ...args) => {
    const request = raw as IncomingMessage & { [done]?: { value: T } };
    let once = request[done];
    if (!once) {
      once = { value: work(...args) };
      request[done] = once;
    }
    return once.value;
  };
}

/** Counts a request in the metrics, as their hook counts those Fastify answers. */
export type CountRequest = (method: string, route: string, status: number, seconds: number) => void;

export type EarlyAnswersOptions = {
  /** Whether X-Forwarded-For and X-Forwarded-Proto are believed, as Fastify's `trustProxy` says. */
  trustProxy: boolean;
  /** The request's id, as Fastify's `genReqId` makes it. */
  requestId: (headers: IncomingHttpHeaders) => string;
};

type Started = { log: FastifyBaseLogger; countRequest: CountRequest };
/** An early answer and the route it is counted under in the metrics, as Fastify names the route it stands for. */
type Routed = { route: string; answer: EarlyAnswer };
/** Early answers to the paths one segment under a prefix (with its slash). */
type Under = Routed & { prefix: string };
type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;
/** What Fastify gives its `serverFactory`: its own options, with its defaults filled in. */
type ServerOptions = {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

/** Log levels at which Fastify logs every request ("incoming request", "request completed"). */
const REQUEST_LOG_LEVELS = new Set(['info', 'debug', 'trace']);

/**
 * Answers a few GET routes before Fastify routes them: a node agent's pull of what it already has (the 304) is
 * the call every node makes every minute, and Fastify's routing, request objects and hooks were a third of what it
 * cost the app. A route's module adds its early answer and answers through Fastify with the same code; what
 * every answer carries (the default headers, the request id, the metrics, the request log) is written here as
 * Fastify's hooks write it, which a test holds both paths to.
 */
export class EarlyAnswers {
  readonly #byPath = new Map<string, Routed>();
  readonly #under: Under[] = [];
  #started: Started | undefined;
  #closing = false;

  constructor(private readonly options: EarlyAnswersOptions) {}

  /** Answers GET `path` (exactly, with any query) when `answer` does; until `start`, no request is answered early. */
  add(path: string, answer: EarlyAnswer): void {
    if (this.#byPath.has(path)) throw new Error(`an early answer for ${path} is already added`);
    this.#byPath.set(path, { route: path, answer });
  }

  /**
   * Answers GET `prefix/{segment}` (one segment, with any query) when `answer` does, counted as `route`, the path
   * Fastify's router matches them with (`/sub/:token`). The segment comes as it is in the URL, not decoded.
   */
  addUnder(prefix: string, route: string, answer: EarlyAnswer): void {
    const under = `${prefix}/`;
    if (this.#under.some((added) => added.prefix === under))
      throw new Error(`early answers under ${prefix} are already added`);
    this.#under.push({ prefix: under, route, answer });
  }

  /** From here on requests may be answered early, logged and counted as Fastify's own. */
  start(started: Started): void {
    this.#started = started;
  }

  /** Closing: every request goes to Fastify, which answers 503 as the app's other requests. */
  close(): void {
    this.#closing = true;
  }

  /** Fastify's `serverFactory`: the server Fastify would make, whose requests meet the early answers first. */
  readonly serverFactory = (handler: RequestListener, options: ServerOptions): http.Server => {
    const server = http.createServer(options.http ?? {}, (request, response) => {
      if (!this.#answerEarly(request, response, handler)) handler(request, response);
    });
    // What Fastify sets on a server it makes itself.
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  /** Whether the request is one of the early answers': if its answer declines it, it then goes to Fastify. */
  #answerEarly(request: IncomingMessage, response: ServerResponse, fastify: RequestListener): boolean {
    const started = this.#started;
    if (!started || this.#closing || request.method !== 'GET') return false;
    const url = request.url ?? '';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const routed = this.#routed(path);
    if (!routed) return false;
    const startedAt = performance.now();
    // Whatever fails on the way goes to Fastify, which meets the same failure on the route and answers it as an
    // envelope in the user's language: nothing thrown here may reach the server's listener.
    const leave = (error?: Error) => {
      if (error) started.log.debug({ err: { message: error.message }, route: routed.route }, 'early answer failed');
      fastify(request, response);
    };
    let answering: MaybePromise<Answer | undefined>;
    try {
      const query = queryAt === -1 ? {} : (parseQuery(url.slice(queryAt + 1)) as Record<string, unknown>);
      const ip = () => clientIp(request, this.options.trustProxy);
      answering = routed.answer({ raw: request, path, query, ip });
    } catch (error) {
      leave(error as Error);
      return true;
    }
    const answer = (answered: Answer | undefined) => {
      if (!answered) return leave();
      try {
        this.#write(request, response, routed.route, answered, startedAt, started);
      } catch (error) {
        if (response.headersSent) response.destroy(error as Error);
        else leave(error as Error);
      }
    };
    if (answering instanceof Promise) answering.then(answer, leave);
    else answer(answering);
    return true;
  }

  #routed(path: string): Routed | undefined {
    const exact = this.#byPath.get(path);
    if (exact) return exact;
    for (const under of this.#under) {
      const { prefix } = under;
      if (path.length > prefix.length && path.startsWith(prefix) && path.indexOf('/', prefix.length) === -1)
        return under;
    }
    return undefined;
  }

  /** The answer, with what Fastify's hooks add to every answer, logged and counted as they do it. */
  #write(
    request: IncomingMessage,
    response: ServerResponse,
    route: string,
    answer: Answer,
    startedAt: number,
    { log, countRequest }: Started,
  ) {
    const { trustProxy, requestId } = this.options;
    const id = requestId(request.headers);
    const requestLog = REQUEST_LOG_LEVELS.has(log.level) ? log.child({ reqId: id }) : undefined;
    requestLog?.info(
      { req: { method: request.method, url: request.url, ip: clientIp(request, trustProxy) } },
      'incoming request',
    );
    // Name, value pairs in one array, each name once (the answer's own replace the defaults and the id): merging them
    // into a new object of twenty-odd keys, which Node then walked key by key, made the write half a microsecond
    // slower (8.6 against 8.0 µs a 304).
    const own = answer.headers;
    const defaults = defaultHeaderPairsFor(protocolOf(request, trustProxy));
    const headers: string[] = [];
    for (let i = 0; i < defaults.length; i += 2) {
      const name = defaults[i]!;
      if (own[name] === undefined) headers.push(name, defaults[i + 1]!);
    }
    if (own['x-request-id'] === undefined) headers.push('x-request-id', id);
    for (const name in own) headers.push(name, own[name]!);
    if (answer.body !== undefined) headers.push('content-length', String(Buffer.byteLength(answer.body)));
    response.writeHead(answer.status, headers);
    response.end(answer.body);
    const elapsed = performance.now() - startedAt;
    countRequest('GET', route, answer.status, elapsed / 1000);
    requestLog?.info({ res: { statusCode: answer.status }, responseTime: elapsed }, 'request completed');
  }
}
