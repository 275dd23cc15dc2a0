import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import type { NodeView } from '../nodes/nodes.service.js';
import { AliveBodySchema, MAX_USERS_PER_REPORT, NodeQuerySchema, PushBodySchema } from './node-api.schema.js';
import { readPushBody } from './push-body.js';
import { uniProxyConfigAnswer } from './uni-proxy-config.js';
import type { UserListCache } from './user-list.js';

export const NODE_API_PREFIX = '/api/v1/server/UniProxy';
/** A push of 100,000 users' traffic is about 4 MB of JSON. */
const REPORT_BODY_LIMIT = 16 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    node: NodeView;
  }
}

/**
 * Answers with the body and its quoted-hash ETag, or 304 when the agent already has it; a body kept gzipped is sent
 * as it is to an agent that accepts gzip (V2bX's HTTP client asks for it by default).
 */
function sendTagged(
  request: FastifyRequest,
  reply: FastifyReply,
  body: string | Buffer,
  etag: string,
  gzipped?: Buffer,
) {
  // The agent keeps the ETag itself; no cache on the way may keep the users' credentials.
  reply.header('etag', etag).header('cache-control', 'no-store').header('vary', 'accept-encoding');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (gzipped && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    return reply.header('content-encoding', 'gzip').send(gzipped);
  }
  return reply.send(body);
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

  // Every call: the node's own id and token (a shared token is not accepted), and a heartbeat for its status.
  app.addHook('preHandler', async (request) => {
    const query = NodeQuerySchema.safeParse(request.query);
    const header = request.headers['x-api-key'];
    const token = query.data?.token ?? (typeof header === 'string' ? header : undefined);
    const node =
      query.success && token
        ? await fastify.nodes.authenticate(Number(query.data.node_id), token, query.data.node_type)
        : undefined;
    if (!node) throw new AppError('FORBIDDEN');
    request.node = node;
    // The heartbeat only feeds the status pages: a store that is away must not refuse the agent's call, or its
    // traffic report would be lost.
    await fastify.nodes
      .heartbeat(node.id)
      .catch((error: Error) => request.log.warn({ err: { message: error.message } }, 'node heartbeat not recorded'));
  });

  app.get(`${NODE_API_PREFIX}/config`, async (request, reply) => {
    const { body, etag } = uniProxyConfigAnswer(request.node);
    return sendTagged(request, reply, body, etag);
  });

  app.get(`${NODE_API_PREFIX}/user`, async (request, reply) => {
    const list = await users.current();
    return sendTagged(request, reply, list.body, list.etag, list.gzipped);
  });

  app.post(`${NODE_API_PREFIX}/push`, {
    bodyLimit: REPORT_BODY_LIMIT,
    schema: { body: PushBodySchema },
    handler: async (request) => {
      const pushed = request.body;
      checkSize(pushed.length);
      const rate = request.node.rate;
      // The entries are the request's own: scaled where they are.
      for (const entry of pushed) {
        entry.upload = Math.round(entry.upload * rate);
        entry.download = Math.round(entry.download * rate);
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
