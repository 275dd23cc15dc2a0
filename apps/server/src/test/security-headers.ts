import type http from 'node:http';
import { expect } from 'vitest';

type AnyHeaders = Headers | http.IncomingHttpHeaders;

function headerOf(headers: AnyHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** An answer's Content-Security-Policy as directive names to their sources (an empty map when it has none). */
export function cspOf(headers: AnyHeaders): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (headerOf(headers, 'content-security-policy') ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/**
 * What every answer carries: a policy that runs no inline script and no eval, loads no plugin, allows no `<base>` and
 * no framing; nosniff; a referrer that stays on the site; no framing in older browsers either.
 */
export function expectSecurityHeaders(headers: AnyHeaders) {
  const csp = cspOf(headers);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect([...csp.values()].flat()).not.toContain("'unsafe-eval'");
  expect(headerOf(headers, 'x-content-type-options')).toBe('nosniff');
  expect(headerOf(headers, 'referrer-policy')).toBe('same-origin');
  expect(headerOf(headers, 'x-frame-options')).toBe('DENY');
}
