import { adminClearNotice, adminGetNotice, adminSetNotice } from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { localized } from '../../lib/localized.js';
import { routeOf } from '../../lib/route.js';

/** The console's notice routes, under ADMIN_PATH: the dashboard's banner in the three languages. */
export default async function noticeConsoleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const writers = { onRequest: fastify.operatorCan('notice.write') };

  app.route({
    ...routeOf(adminGetNotice),
    ...writers,
    handler: async (request) => ok(request, { texts: (await fastify.notice.all()) ?? null }),
  });

  app.route({
    ...routeOf(adminSetNotice),
    ...writers,
    handler: async (request) => {
      const { en, ...others } = request.body;
      return ok(request, { texts: await fastify.notice.set(localized(en, others), request.audit) });
    },
  });

  app.route({
    ...routeOf(adminClearNotice),
    ...writers,
    handler: async (request) => {
      await fastify.notice.clear(request.audit);
      return ok(request, { texts: null });
    },
  });
}
