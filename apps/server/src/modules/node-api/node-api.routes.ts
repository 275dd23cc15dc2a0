import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { NodeView } from '../nodes/nodes.service.js';
import { AliveBodySchema, PushBodySchema } from './node-api.schema.js';

export const NODE_API_PREFIX = '/api/v1/server/UniProxy';
/**
 * A report's body: a push of 100,000 users' traffic is about 4 MB of JSON. No agent compresses its reports, and a
 * compressed body is refused unread (400), rather than inflated past the limit.
 */
const REPORT = { bodyLimit: 16 * 1024 * 1024, decompress: false } as const;

declare module 'fastify' {
  interface FastifyRequest {
    node: NodeView;
  }
}

/**
 * Answers with the body and its ETag, or 304 when the agent already has it; a body kept gzipped is sent as it is to an
 * agent that accepts gzip (V2bX's HTTP client asks for it by default).
 */
function sendTagged(
  request: FastifyRequest,
  reply: FastifyReply,
  { body, etag, gzipped }: { body: Buffer; etag: string; gzipped?: Buffer },
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

export default async function nodeApiRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { nodeApi } = fastify;
  fastify.decorateRequest('node', null as unknown as NodeView);

  app.addHook('preHandler', async (request) => {
    const call = { url: request.url, query: request.query, apiKey: request.headers['x-api-key'] };
    request.node = await nodeApi.authenticate(call, request.log);
  });

  app.get(`${NODE_API_PREFIX}/config`, async (request, reply) =>
    sendTagged(request, reply, nodeApi.config(request.node)),
  );

  app.get(`${NODE_API_PREFIX}/user`, async (request, reply) => sendTagged(request, reply, await nodeApi.users()));

  app.post(`${NODE_API_PREFIX}/push`, {
    ...REPORT,
    schema: { body: PushBodySchema },
    handler: async (request) => {
      await nodeApi.pushTraffic(request.node, request.body);
      return { data: true };
    },
  });

  app.post(`${NODE_API_PREFIX}/alive`, {
    ...REPORT,
    schema: { body: AliveBodySchema },
    handler: async (request) => {
      await nodeApi.reportAlive(request.node, request.body);
      return { data: true };
    },
  });

  app.get(`${NODE_API_PREFIX}/alivelist`, async () => ({ alive: await nodeApi.onlineCounts() }));
}
