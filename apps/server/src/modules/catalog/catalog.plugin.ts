import fp from 'fastify-plugin';
import { CatalogRepository } from './catalog.repository.js';
import catalogRoutes from './catalog.routes.js';
import { CatalogService } from './catalog.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    catalog: CatalogService;
  }
}

export type CatalogOptions = { now?: () => number; seedDemo?: boolean };

export default fp<CatalogOptions>(
  async (fastify, { now = Date.now, seedDemo = false }) => {
    const service = new CatalogService(new CatalogRepository(fastify.db), now);
    fastify.decorate('catalog', service);
    if (seedDemo && (await service.seedDemo())) fastify.log.info('seeded the demo catalogue into the empty database');
    await fastify.register(catalogRoutes);
  },
  { name: 'catalog', dependencies: ['db', 'auth'] },
);
