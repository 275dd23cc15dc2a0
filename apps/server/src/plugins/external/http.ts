import formbody from '@fastify/formbody';
import type { preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import {
  COMPRESS_FROM_BYTES,
  COMPRESS_IN_ONE_CALL_UP_TO_BYTES,
  compressInBackground,
  compressNow,
  encodingFor,
} from '../../lib/compression.js';
import { defaultHeadersFor } from '../../lib/security-headers.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False: the route's answers go as they are (they shrink too little for what compressing costs). */
    compress?: false;
  }
}

/** Answers worth compressing: text of any kind. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|yaml|x-yaml)|image\/svg\+xml)/i;

/** A POST without a body is an empty form: its fields are then reported as missing, one by one. */
const emptyBodyAsEmptyForm: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined) request.body = {};
  done();
};

/**
 * What every route relies on: security headers, compression of answers made in memory, form bodies. Files, sent as
 * streams, are compressed where they are served (plugins/app/web.ts).
 */
export default fp(
  async (fastify) => {
    // Set before the route runs, so that error answers carry them too. A callback hook, not an async one: it runs
    // on every request, and a promise per request per hook is a measurable part of a small call's cost.
    fastify.addHook('onRequest', (request, reply, done) => {
      reply.headers(defaultHeadersFor(request.protocol));
      // The id that every log line of the request carries, so that a customer's report can be found in the log.
      reply.header('x-request-id', request.id);
      done();
    });
    // An answer made in memory (JSON, a feed) is compressed here, in one call: @fastify/compress pipes each through
    // a zlib stream on the thread pool, which took 0.45 ms of a feed's 0.57 ms, and its hooks cost every request
    // something even where nothing is compressed, so it serves only the files.
    fastify.addHook('onSend', (request, reply, payload, done) => {
      if (!(typeof payload === 'string' || Buffer.isBuffer(payload)) || reply.hasHeader('content-encoding')) {
        return done(null, payload);
      }
      const type = reply.getHeader('content-type');
      const bytes = Buffer.byteLength(payload);
      // Short answers, most of them, leave here: no encoding, no look at the route.
      if (bytes < COMPRESS_FROM_BYTES || typeof type !== 'string' || !COMPRESSIBLE.test(type)) {
        return done(null, payload);
      }
      if (request.routeOptions.config.compress === false) return done(null, payload);
      const encoding = encodingFor(reply, bytes);
      if (!encoding) return done(null, payload);
      reply.header('content-encoding', encoding).removeHeader('content-length');
      if (bytes <= COMPRESS_IN_ONE_CALL_UP_TO_BYTES) return done(null, compressNow(payload, encoding));
      // A large answer (a node's whole user list to an agent that takes brotli but not gzip) would hold the event
      // loop for a tenth of a second: it is compressed on the thread pool.
      compressInBackground(payload, encoding).then(
        (compressed) => done(null, compressed),
        (error: Error) => done(error),
      );
    });
    await fastify.register(formbody, { bodyLimit: 64 * 1024 });
    // Bodies are forms (and JSON for API clients); no call takes plain text, so it is refused with 415.
    fastify.removeContentTypeParser('text/plain');
    // Only on the routes that take a body, ahead of their own hooks: the others have no use for it.
    fastify.addHook('onRoute', (route) => {
      if (!route.schema?.body) return;
      const own = route.preValidation ?? [];
      route.preValidation = [emptyBodyAsEmptyForm, ...(Array.isArray(own) ? own : [own])];
    });
  },
  { name: 'http' },
);
