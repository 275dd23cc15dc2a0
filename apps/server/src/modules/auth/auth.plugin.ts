import { CHECKOUT_COOKIE } from '@mutenet/contract';
import { parseCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/app-error.js';
import { AuthRepository, type SessionUser } from './auth.repository.js';
import authRoutes from './auth.routes.js';
import { AuthService } from './auth.service.js';
import { tokenOf } from './session-token.js';

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
    /** An onRequest/preHandler hook: answers 401 unless the request carries a live session token. */
    authenticate(request: FastifyRequest): Promise<void>;
    /**
     * The hosted checkout's hook: the `Authorization` header, or else the `token` cookie the panel sets; a request
     * authenticated by the cookie that changes anything must come from this site's own pages: its `Origin` is the
     * origin of `PUBLIC_URL`, never one read from the request's own (forwarded) host, which its sender chooses.
     */
    authenticateCheckout(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    user: SessionUser;
  }
}

/** How often expired sessions are deleted. */
const SESSION_CLEANUP_MS = 60 * 60_000;

export type AuthOptions = {
  now?: () => number;
  /** The address customers reach the panel at (`PUBLIC_URL`): its origin is the checkout pages'. */
  publicUrl: string;
};

export default fp<AuthOptions>(
  async (fastify, { now = Date.now, publicUrl }) => {
    const ownOrigin = new URL(publicUrl).origin;
    const service = new AuthService({
      repository: new AuthRepository(fastify.db),
      store: fastify.store,
      captchas: fastify.captchas,
      mailer: fastify.mailer,
      now,
    });
    fastify.decorate('auth', service);
    // Expired sessions answer 401 already; this only keeps the table from growing. Safe on every instance at once.
    fastify.jobs.every('expired-sessions', SESSION_CLEANUP_MS, () => service.deleteExpiredSessions());
    fastify.decorateRequest('user', null as unknown as SessionUser);
    fastify.decorate('authenticate', async (request: FastifyRequest) => {
      const token = tokenOf(request);
      const user = token ? await service.sessionUser(token) : undefined;
      if (!user) throw new AppError('UNAUTHORIZED');
      request.user = user;
    });
    fastify.decorate('authenticateCheckout', async (request: FastifyRequest) => {
      const header = tokenOf(request);
      const cookies = request.headers.cookie;
      const cookie = cookies ? parseCookie(cookies)[CHECKOUT_COOKIE] : undefined;
      if (!header && cookie && request.method !== 'GET' && request.method !== 'HEAD') {
        const origin = request.headers.origin;
        if (origin !== ownOrigin) throw new AppError('FORBIDDEN');
      }
      const token = header ?? (cookie && cookie.length <= 256 ? cookie : undefined);
      const user = token ? await service.sessionUser(token) : undefined;
      if (!user) throw new AppError('UNAUTHORIZED');
      request.user = user;
    });
    await fastify.register(authRoutes);
  },
  { name: 'auth', dependencies: ['db', 'store', 'captcha', 'mail', 'i18n', 'errors', 'jobs'] },
);
