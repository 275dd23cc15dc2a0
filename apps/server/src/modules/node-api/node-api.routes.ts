import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import { GZIPPED_HEADERS } from '../../lib/compression.js';
import { type Answer, goesAsIs } from '../../lib/early-answers.js';
import { type MaybePromise, thenMaybe } from '../../lib/maybe-promise.js';
import type { NodeView } from '../nodes/nodes.service.js';
import { AliveBodySchema, MAX_USERS_PER_REPORT, PushBodySchema, readNodeQuery } from './node-api.schema.js';
import { readPushBody } from './push-body.js';
import { uniProxyConfigAnswer } from './uni-proxy-config.js';
import type { UserListCache } from './user-list.js';

export const NODE_API_PREFIX = '/api/v1/server/UniProxy';
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** A push of 100,000 users' traffic is about 4 MB of JSON. */
const REPORT_BODY_LIMIT = 16 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    node: NodeView;
  }
}

/**
 * The body and its quoted-hash ETag, or 304 when the agent already has it; a body kept gzipped goes as it is to an
 * agent that accepts gzip (V2bX's HTTP client asks for it by default).
 */
function taggedAnswer(headers: IncomingHttpHeaders, body: string | Buffer, etag: string, gzipped?: Buffer): Answer {
  // The agent keeps the ETag itself; no cache on the way may keep the users' credentials. Each answer's headers are
  // one literal, not spread from another: the early answer's writer reads them by name, and V8 looked the names of a
  // spread object up in its runtime, 4 % of a config pull's CPU, and 3 % more to make it.
  if (headers['if-none-match'] === etag) {
    return { status: 304, headers: { etag, 'cache-control': 'no-store', vary: 'accept-encoding' } };
  }
  const json = { etag, 'cache-control': 'no-store', vary: 'accept-encoding', 'content-type': JSON_CONTENT_TYPE };
  if (gzipped && /\bgzip\b/.test(headers['accept-encoding'] ?? '')) {
    return { status: 200, headers: Object.assign(json, GZIPPED_HEADERS), body: gzipped };
  }
  return { status: 200, headers: json, body };
}

function checkSize(users: number) {
  if (users > MAX_USERS_PER_REPORT) throw new AppError('PAYLOAD_TOO_LARGE');
}

export default async function nodeApiRoutes(fastify: FastifyInstance, { users }: { users: UserListCache }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  fastify.decorateRequest('node', null as unknown as NodeView);

  // A push's body is read straight from its text when it has the common form; any other JSON, and every other
  // call's, is parsed as everywhere else.
  const parseJson = fastify.getDefaultJsonParser(
    fastify.initialConfig.onProtoPoisoning ?? 'error',
    fastify.initialConfig.onConstructorPoisoning ?? 'error',
  );
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const read = request.routeOptions.url === `${NODE_API_PREFIX}/push` ? readPushBody(body as Buffer) : undefined;
    if (read) done(null, read);
    else parseJson(request, body.toString('utf8'), done);
  });

  /** The node whose own id and token the call carries (a shared token is not accepted), else undefined. */
  function callingNode(query: unknown, apiKey: unknown): MaybePromise<NodeView | undefined> {
    const nodeQuery = readNodeQuery(query);
    const token = nodeQuery?.token ?? (typeof apiKey === 'string' ? apiKey : undefined);
    if (!nodeQuery || !token) return undefined;
    return fastify.nodes.authenticate(nodeQuery.nodeId, token, nodeQuery.nodeType);
  }

  // The heartbeat only feeds the status pages: a store that is away must not refuse the agent's call, or its
  // traffic report would be lost.
  const recordHeartbeat = (node: NodeView, log: FastifyBaseLogger) =>
    fastify.nodes
      .heartbeat(node.id)
      ?.catch((error: Error) => log.warn({ err: { message: error.message } }, 'node heartbeat not recorded'));

  // Every call: the node's own id and token, and a heartbeat for its status.
  app.addHook('preHandler', async (request) => {
    const node = await callingNode(request.query, request.headers['x-api-key']);
    if (!node) throw new AppError('FORBIDDEN');
    request.node = node;
    await recordHeartbeat(node, request.log);
  });

  // What an agent pulls, answered by the same code on the route and, when it goes as it is, before Fastify routes
  // it (lib/early-answers.ts): every node pulls both every minute, and most pulls are 304s.
  // Each answered at once when it can be (lib/maybe-promise.ts), as is the node's check and its heartbeat.
  const pulls: Record<string, (headers: IncomingHttpHeaders, node: NodeView) => MaybePromise<Answer>> = {
    [`${NODE_API_PREFIX}/config`]: (headers, node) => {
      const { body, etag } = uniProxyConfigAnswer(node);
      return taggedAnswer(headers, body, etag);
    },
    [`${NODE_API_PREFIX}/user`]: (headers) =>
      thenMaybe(users.current(), (list) => taggedAnswer(headers, list.body, list.etag, list.gzipped)),
  };
  for (const [path, answerTo] of Object.entries(pulls)) {
    app.get(path, async (request, reply) => {
      const { status, headers, body } = await answerTo(request.headers, request.node);
      return reply.code(status).headers(headers).send(body);
    });
    // A call the route would refuse, or whose answer wants compressing, is left to it.
    fastify.earlyAnswers.add(path, ({ raw, query }) =>
      thenMaybe(callingNode(query, raw.headers['x-api-key']), (node) => {
        if (!node) return undefined;
        const answer = () =>
          thenMaybe(answerTo(raw.headers, node), (answered) => (goesAsIs(answered) ? answered : undefined));
        // Almost always none to wait for (one a minute per node).
        const heartbeat = recordHeartbeat(node, fastify.log);
        return heartbeat ? heartbeat.then(answer) : answer();
      }),
    );
  }

  app.post(`${NODE_API_PREFIX}/push`, {
    bodyLimit: REPORT_BODY_LIMIT,
    schema: { body: PushBodySchema },
    handler: async (request) => {
      const pushed = request.body;
      checkSize(pushed.length);
      const rate = request.node.rate;
      // The entries are the request's own: scaled where they are. Past 2^53 bytes (8 PiB, beyond any allowance) a
      // count is no longer exact, and the counters take whole numbers: it is held there.
      for (const entry of pushed) {
        entry.upload = Math.min(Math.round(entry.upload * rate), Number.MAX_SAFE_INTEGER);
        entry.download = Math.min(Math.round(entry.download * rate), Number.MAX_SAFE_INTEGER);
      }
      await fastify.subscriptions.addTraffic(pushed);
      return { data: true };
    },
  });

  app.post(`${NODE_API_PREFIX}/alive`, {
    bodyLimit: REPORT_BODY_LIMIT,
    schema: { body: AliveBodySchema },
    handler: async (request) => {
      checkSize(Object.keys(request.body).length);
      await fastify.nodes.reportOnline(request.node.id, request.body);
      return { data: true };
    },
  });

  app.get(`${NODE_API_PREFIX}/alivelist`, async () => ({ alive: await fastify.nodes.onlineCounts() }));
}
