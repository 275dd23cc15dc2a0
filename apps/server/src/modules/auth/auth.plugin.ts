import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/app-error.js';
import { AuthRepository, type SessionUser } from './auth.repository.js';
import authRoutes from './auth.routes.js';
import { AuthService } from './auth.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
    /** An onRequest/preHandler hook: answers 401 unless the request carries a live session token. */
    authenticate(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    user: SessionUser;
  }
}

const TOKEN_MAX_LENGTH = 256;

/** The token of the `Authorization` header, sent bare as the panel does or as `Bearer <token>`. */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header || header.length > TOKEN_MAX_LENGTH) return undefined;
  const token = header.startsWith('Bearer ') ? header.slice(7) : header;
  return token.trim() || undefined;
}

export type AuthOptions = { now?: () => number };

export default fp<AuthOptions>(
  async (fastify, { now = Date.now }) => {
    const service = new AuthService({
      repository: new AuthRepository(fastify.db),
      store: fastify.store,
      captchas: fastify.captchas,
      mailer: fastify.mailer,
      now,
    });
    fastify.decorate('auth', service);
    fastify.decorateRequest('user', null as unknown as SessionUser);
    fastify.decorate('authenticate', async (request: FastifyRequest) => {
      const token = tokenOf(request);
      const user = token ? await service.sessionUser(token) : undefined;
      if (!user) throw new AppError('UNAUTHORIZED');
      request.user = user;
    });
    await fastify.register(authRoutes);
  },
  { name: 'auth', dependencies: ['db', 'store', 'captcha', 'mail', 'i18n', 'errors'] },
);
