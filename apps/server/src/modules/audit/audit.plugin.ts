import fp from 'fastify-plugin';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    audit: AuditService;
  }
}

/**
 * The audit log's service, which every module's console routes record their changes into. Its own route (owners read
 * the log, `audit.routes.ts`) is registered after the operators' guard it stands behind.
 */
export default fp<{ now?: () => number }>(
  async (fastify, { now = Date.now }) => {
    fastify.decorate('audit', new AuditService({ repository: new AuditRepository(fastify.db), now }));
  },
  { name: 'audit', dependencies: ['db'] },
);
