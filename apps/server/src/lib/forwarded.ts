import type { IncomingMessage } from 'node:http';

/**
 * The request's protocol as Fastify's `request.protocol` reads it, for a request Fastify has made no request object
 * of that reads a proxy's headers (a path the router refuses): a trusted proxy's X-Forwarded-Proto (the last value,
 * the nearest proxy's), else the socket's.
 */
export function protocolOf(request: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? request.headers['x-forwarded-proto'] : undefined;
  if (typeof forwarded === 'string' && forwarded) return forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
  return (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
}
