import { getAuditLog } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';

/** Owners read the audit log, under the console's path. */
export default async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.route({
    ...routeOf(getAuditLog),
    onRequest: fastify.operatorCan('audit.read'),
    handler: async (request) => ok(request, await fastify.audit.list(request.query)),
  });
}
