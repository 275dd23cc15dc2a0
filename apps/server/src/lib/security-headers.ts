import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { ANSWER_POLICY } from './content-security-policy.js';

/**
 * The headers helmet sets on every answer, worked out once at start: they never change between requests, and
 * building helmet's middleware for each request (as @fastify/helmet does) was a measurable part of a small call's
 * cost. The web app's two pages replace the Content-Security-Policy with their own (plugins/app/web.ts).
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = headersOf(
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: ANSWER_POLICY },
    crossOriginEmbedderPolicy: false,
    // Nothing of the panel's addresses (order numbers, the configure screen's product) leaves the site.
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    // Set per request, and only over HTTPS (plugins/external/http.ts).
    strictTransportSecurity: false,
  }),
);

/** What a middleware sets on a response, collected from a stand-in for one. */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return Object.freeze(headers);
}

/**
 * The headers every answer starts with; a route that says how it may be cached replaces `cache-control`. An answer
 * that does not say is stored nowhere: most answers carry personal data.
 */
const DEFAULT_HEADERS = Object.freeze({ ...SECURITY_HEADERS, 'cache-control': 'no-store' });
/**
 * Over HTTPS (the socket's, or a trusted proxy's X-Forwarded-Proto) only: over plain HTTP the header means nothing,
 * and a proxy that is not trusted must not make the browser pin the site.
 */
const HTTPS_DEFAULT_HEADERS = Object.freeze({
  ...DEFAULT_HEADERS,
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
});

/** The headers every answer starts with, over the request's protocol as Fastify reads it. */
export function defaultHeadersFor(protocol: string | undefined): Readonly<Record<string, string>> {
  return protocol === 'https' ? HTTPS_DEFAULT_HEADERS : DEFAULT_HEADERS;
}

const pairsOf = (headers: Readonly<Record<string, string>>) => Object.freeze(Object.entries(headers).flat());
const DEFAULT_HEADER_PAIRS = pairsOf(DEFAULT_HEADERS);
const HTTPS_DEFAULT_HEADER_PAIRS = pairsOf(HTTPS_DEFAULT_HEADERS);

/** `defaultHeadersFor`'s headers as name, value pairs in one array, as `writeHead` takes them. */
export function defaultHeaderPairsFor(protocol: string | undefined): readonly string[] {
  return protocol === 'https' ? HTTPS_DEFAULT_HEADER_PAIRS : DEFAULT_HEADER_PAIRS;
}
