import type { AdminPermission } from '@mutenet/contract';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/app-error.js';
import type { AuditHook } from '../audit/audit.service.js';
import operatorsRoutes from './operators.routes.js';
import {
  accessMay,
  createOperatorsService,
  type OperatorAccess,
  type OperatorsService,
  relyingPartyOf,
  type SignedInOperator,
} from './operators.service.js';
import { sessionCookieOf } from './session-cookie.js';
import tokensRoutes from './tokens.routes.js';

type OperatorHook = (request: FastifyRequest) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    operators: OperatorsService;
    /**
     * An onRequest/preHandler hook for an admin route: 401 without a live operator session (the `mutenet_admin`
     * cookie) or API token (`Authorization: Bearer`), 403 when the role may not do `permission` or the session is
     * still limited to changing the password or enrolling an authenticator. Sets `request.operator`.
     */
    operatorCan(permission: AdminPermission): OperatorHook;
    /** Any live session or token, limited ones too (the session routes themselves). Sets `request.operatorAccess`. */
    authenticateOperator: OperatorHook;
  }
  interface FastifyRequest {
    operator: SignedInOperator;
    operatorAccess: OperatorAccess;
    /** The audit log, bound to the request's operator (or token) and address: hand it to a service's change. */
    audit: AuditHook;
  }
}

/** How often dead operator sessions are deleted. */
const SESSION_CLEANUP_MS = 60 * 60_000;

export type OperatorsOptions = {
  now?: () => number;
  /** Where the console and its API live (`ADMIN_PATH`): the routes' prefix and the cookie's path. */
  adminPath: string;
  /** `PUBLIC_URL`: a cookie request that changes anything must come from its origin; passkeys are made for it. */
  publicUrl: string;
};

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice(7).trim() || undefined;
}

export default fp<OperatorsOptions>(
  async (fastify, { now = Date.now, adminPath, publicUrl }) => {
    const ownOrigin = new URL(publicUrl).origin;
    const service = createOperatorsService(fastify.db, fastify.store, now, relyingPartyOf(publicUrl));
    fastify.decorate('operators', service);
    fastify.jobs.every('expired-operator-sessions', SESSION_CLEANUP_MS, () => service.deleteDeadSessions());
    fastify.decorateRequest('operator', null as unknown as SignedInOperator);
    fastify.decorateRequest('operatorAccess', null as unknown as OperatorAccess);
    fastify.decorateRequest('audit', null as unknown as AuditHook);

    /**
     * A bearer token is an API token (or a session token a script sent itself); the cookie is the console's, and a
     * browser sends it along from any page: a cookie request that changes anything must come from PUBLIC_URL's origin.
     */
    const authenticateOperator = async (request: FastifyRequest) => {
      const bearer = bearerOf(request);
      let access: OperatorAccess | undefined;
      if (bearer) {
        access = (await service.tokenAccess(bearer)) ?? (await service.sessionAccess(bearer));
      } else {
        const cookie = sessionCookieOf(request);
        if (cookie && request.method !== 'GET' && request.method !== 'HEAD' && request.headers.origin !== ownOrigin) {
          throw new AppError('FORBIDDEN');
        }
        access = cookie ? await service.sessionAccess(cookie) : undefined;
      }
      if (!access) throw new AppError('UNAUTHORIZED');
      request.operatorAccess = access;
      request.operator = access.operator;
      const actor = access.operator;
      request.audit = (executor, change) => fastify.audit.record(executor, { ...change, actor, ip: request.ip });
    };
    fastify.decorate('authenticateOperator', authenticateOperator);
    fastify.decorate('operatorCan', (permission: AdminPermission) => async (request: FastifyRequest) => {
      await authenticateOperator(request);
      if (!accessMay(request.operatorAccess, permission)) throw new AppError('FORBIDDEN');
    });

    await fastify.register(operatorsRoutes, { prefix: adminPath, adminPath, ownOrigin });
    await fastify.register(tokensRoutes, { prefix: adminPath });
  },
  { name: 'operators', dependencies: ['db', 'store', 'i18n', 'errors', 'jobs', 'rate-limit', 'audit'] },
);
