import { ANSWER_POLICY } from './content-security-policy.js';

/**
 * What helmet sets on every answer (plugins/external/http.ts). The policy is the one of answers that load nothing
 * (JSON, the feed); the web app's pages replace it with their own (plugins/app/web.ts).
 */
export const SECURITY_HEADERS = {
  contentSecurityPolicy: { useDefaults: false, directives: ANSWER_POLICY },
  crossOriginEmbedderPolicy: false,
  // Nothing of the panel's addresses (order numbers, the configure screen's product) leaves the site.
  referrerPolicy: { policy: 'same-origin' },
  xFrameOptions: { action: 'deny' },
  // Sent only over HTTPS: see `HSTS`.
  strictTransportSecurity: false,
} as const;

/**
 * Sent over HTTPS only (the socket's, or a trusted proxy's X-Forwarded-Proto): over plain HTTP the header means
 * nothing, and a proxy that is not trusted must not make the browser pin the site.
 */
export const HSTS = 'max-age=31536000; includeSubDomains';
