/**
 * What a request says of its client when Fastify has not made a request object of it (an early answer, a path the
 * router refuses): read as Fastify reads it, believing a proxy's X-Forwarded-* headers only when it trusts the proxy.
 */
import type { IncomingMessage } from 'node:http';

/** The last value of a header a proxy may have set more than once, as Fastify reads it. */
function lastEntry(value: string): string {
  const comma = value.lastIndexOf(',');
  return (comma === -1 ? value : value.slice(comma + 1)).trim();
}

/** The request's protocol as Fastify's `request.protocol` reads it. */
export function protocolOf(request: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? request.headers['x-forwarded-proto'] : undefined;
  if (typeof forwarded === 'string' && forwarded) return lastEntry(forwarded);
  return (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
}

/** The client's address as Fastify's `request.ip` reads it: behind a trusted proxy, the first X-Forwarded-For. */
export function clientIp(request: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? request.headers['x-forwarded-for'] : undefined;
  const first = typeof forwarded === 'string' ? forwarded.split(',')[0]?.trim() : undefined;
  return first || request.socket.remoteAddress;
}
