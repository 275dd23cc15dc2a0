/** A Content-Security-Policy as directive names to their sources. */
export type ContentSecurityPolicy = Readonly<Record<string, readonly string[]>>;

/**
 * What every policy says: scripts only from this server's own files (no inline script, no event attribute, no
 * `javascript:` URL, no eval), no plugins, no `<base>` to redirect relative URLs, and never inside a frame. The app inside the mobile apps' WebView (`from=mobile`) is that WebView's top-level
 * document, not a frame.
 */
const COMMON: ContentSecurityPolicy = {
  'script-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/**
 * Every answer other than the web app's two pages: JSON, the feed, and the feed's page for browsers, which is one
 * static inline style sheet (every value in it is escaped markup) and nothing else. Nothing more may load.
 */
export const ANSWER_POLICY: ContentSecurityPolicy = {
  'default-src': ["'none'"],
  ...COMMON,
  'style-src': ["'unsafe-inline'"],
  'form-action': ["'none'"],
};

/**
 * The panel (/person/). Mantine writes `<style>` elements while it runs (its theme's CSS variables, and the media
 * queries of responsive props such as AppShell's navbar breakpoint and SimpleGrid's columns), so style elements need
 * 'unsafe-inline'; no nonce can reach them, as the page is a static file. Style attributes written in markup are
 * refused (`style-src-attr`): React sets styles through the CSSOM, which CSP does not govern, so only injected markup
 * would need them. Captchas are data: images. Forms go only to the server (script sends them anyway).
 */
export const PANEL_POLICY: ContentSecurityPolicy = {
  'default-src': ["'self'"],
  ...COMMON,
  'style-src': ["'self'", "'unsafe-inline'"],
  'style-src-attr': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'frame-src': ["'none'"],
  'form-action': ["'self'"],
};

/**
 * The operator console (ADMIN_PATH): the panel's policy, except that its page carries the server's
 * `<base href="ADMIN_PATH/">` (its URLs are relative, as its path is runtime configuration), which may only point at
 * this server; its QR codes are SVG elements, its calls go only to this server.
 */
export const CONSOLE_POLICY: ContentSecurityPolicy = {
  ...PANEL_POLICY,
  'base-uri': ["'self'"],
  'img-src': ["'self'"],
};

/**
 * The hosted checkout (/shopDetails/…): no Mantine, so no inline style at all. It has no form: a gateway's own page
 * is reached by navigating to the `redirect` it returns, which `form-action` does not govern; a gateway that needs
 * a form posted to it would add its origin here.
 */
export const CHECKOUT_POLICY: ContentSecurityPolicy = {
  'default-src': ["'self'"],
  ...COMMON,
  'style-src': ["'self'"],
  'img-src': ["'self'"],
  'connect-src': ["'self'"],
  'frame-src': ["'none'"],
  'form-action': ["'none'"],
};

/** The header's value. */
export function cspHeader(policy: ContentSecurityPolicy): string {
  return Object.entries(policy)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}
