import type { FastifyRequest } from 'fastify';

const TOKEN_MAX_LENGTH = 256;

/** The token of the `Authorization` header, sent bare as the panel does or as `Bearer <token>`. */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header || header.length > TOKEN_MAX_LENGTH) return undefined;
  const token = header.startsWith('Bearer ') ? header.slice(7) : header;
  return token.trim() || undefined;
}
