import fp from 'fastify-plugin';
import noticeRoutes from './notice.routes.js';
import { createNoticeService, type NoticeService } from './notice.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    notice: NoticeService;
  }
}

export default fp<{ now?: () => number }>(
  async (fastify, { now = Date.now }) => {
    fastify.decorate('notice', createNoticeService(fastify.db, now));
    await fastify.register(noticeRoutes);
  },
  { name: 'notice', dependencies: ['db', 'auth'] },
);
