import fp from 'fastify-plugin';
import catalogRoutes from './catalog.routes.js';
import { type CatalogService, createCatalogService } from './catalog.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    catalog: CatalogService;
  }
}

export type CatalogOptions = { now?: () => number; seedDemo?: boolean };

export default fp<CatalogOptions>(
  async (fastify, { now = Date.now, seedDemo = false }) => {
    const service = createCatalogService(fastify.db, now);
    fastify.decorate('catalog', service);
    if (seedDemo && (await service.seedDemo())) fastify.log.info('seeded the demo catalogue into the empty database');
    await fastify.register(catalogRoutes);
  },
  { name: 'catalog', dependencies: ['db', 'auth'] },
);
