import { ERRORS, type ErrorKey, isErrorKey, messageOf, requestLanguageOf } from '@mutenet/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { isUnstorableText } from '../../db/errors.js';
import { AppError } from '../../lib/app-error.js';
import { protocolOf } from '../../lib/forwarded.js';
import { HSTS, SECURITY_HEADERS } from '../../lib/security-headers.js';

// Errors that mean a backing service (database, Redis, the mail server) is unreachable: answer 503 and let it come
// back. ESOCKET, ECONNECTION and EDNS are how nodemailer reports a mail server it cannot reach.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ESOCKET',
  'ECONNECTION',
  'EDNS',
  '57P01',
  '57P03',
  '08006',
  '08001',
  // A commit whose answer was lost (CommitOutcomeUnknownError): the client sends the request again.
  '08007',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|Connection is closed|Stream isn't writeable|max retries per request|Command timed out|timeout exceeded when trying to connect|SQLITE_BUSY/i;

function keyOfStatus(status: number): ErrorKey {
  switch (status) {
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'TOO_MANY_REQUESTS';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return 'BAD_REQUEST';
  }
}

/** Which error the customer is told about; anything unexpected is a 500 whose detail stays in the log. */
function classify(error: FastifyError | AppError): { key: ErrorKey; data: unknown } {
  if (error instanceof AppError) return { key: error.key, data: error.data };
  if (error.validation) {
    const first = error.validation[0]?.message;
    return { key: isErrorKey(first) ? first : 'BAD_REQUEST', data: null };
  }
  if (isUnstorableText(error)) return { key: 'BAD_REQUEST', data: null };
  const code = (error as { code?: string }).code;
  if ((code && UNAVAILABLE_CODES.has(code)) || UNAVAILABLE_MESSAGES.test(error.message ?? '')) {
    return { key: 'SERVICE_UNAVAILABLE', data: null };
  }
  const status = error.statusCode;
  if (status && status >= 400 && status < 500) return { key: keyOfStatus(status), data: null };
  return { key: 'INTERNAL', data: null };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, key: ErrorKey, data: unknown = null) {
  const { code, status } = ERRORS[key];
  // The route's response schema describes its success; an error envelope is written as it is.
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send({ code, msg: request.t(key), data });
}

/**
 * Fastify's `frameworkErrors`: a request the router refuses before any plugin sees it (a malformed percent escape in
 * the path, a path parameter over the router's length limit) gets the same envelope as every other error, not
 * Fastify's own body. No hook has run for it, so its language is read here, and the headers every answer carries are
 * set here as the http plugin's hooks set them. Fastify gives it a request object that does not read a trusted
 * proxy's headers: its protocol is read from the request as it came.
 */
export function frameworkErrorSender(trustProxy: boolean) {
  const securityHeaders = helmet(SECURITY_HEADERS);
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const key = error.statusCode && error.statusCode < 500 ? keyOfStatus(error.statusCode) : 'INTERNAL';
    if (key === 'INTERNAL') request.log.error({ err: error }, 'unhandled error');
    const { code, status } = ERRORS[key];
    const msg = messageOf(key, requestLanguageOf(request.headers['accept-language']));
    securityHeaders(request.raw, reply.raw, () => {});
    if (protocolOf(request.raw, trustProxy) === 'https') reply.header('strict-transport-security', HSTS);
    return reply
      .code(status)
      .type('application/json; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-request-id', request.id)
      .send(JSON.stringify({ code, msg, data: null }));
  };
}

export default fp(
  async (fastify) => {
    fastify.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      const { key, data } = classify(error);
      if (key === 'INTERNAL') request.log.error({ err: error }, 'unhandled error');
      else if (key === 'SERVICE_UNAVAILABLE')
        request.log.warn({ err: { message: error.message } }, 'backing service unavailable');
      if (key === 'SERVICE_UNAVAILABLE') reply.header('retry-after', '5');
      if (error instanceof AppError && error.retryAfterSeconds)
        reply.header('retry-after', String(error.retryAfterSeconds));
      return sendError(request, reply, key, data);
    });
    // A path some route serves, called with a method none of its routes takes, is a 405 naming the ones they take.
    const methods = new Set<string>();
    fastify.addHook('onRoute', ({ method }) => {
      for (const each of Array.isArray(method) ? method : [method]) methods.add(each);
    });
    fastify.setNotFoundHandler((request, reply) => {
      const allowed = [...methods].filter((method) => fastify.findRoute({ method, url: request.url }) !== null);
      // A route of this very method that calls for a 404 (a missing file) answers 404.
      if (allowed.length === 0 || allowed.includes(request.method)) return sendError(request, reply, 'NOT_FOUND');
      return sendError(request, reply.header('allow', allowed.join(', ')), 'METHOD_NOT_ALLOWED');
    });
  },
  { name: 'errors', dependencies: ['i18n'] },
);
