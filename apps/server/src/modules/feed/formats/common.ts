/** Helpers the format renderers share: host forms, server names, early data, names that must not collide. */
import type { ResolvedProxy } from '../../nodes/proxy.model.js';

/** The group that picks the fastest node, in both Clash and sing-box. */
export const AUTO_GROUP = 'Auto';
/** Where the url-test groups measure latency, and how often (seconds) and with what tolerance (ms). */
export const URL_TEST = { url: 'https://www.gstatic.com/generate_204', intervalSeconds: 300, toleranceMs: 50 } as const;

/** The host without IPv6 brackets, as configuration files want it. */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** The host as a URI authority writes it: IPv6 literals in brackets. */
export function uriHost(host: string): string {
  const bare = bareHost(host);
  return bare.includes(':') ? `[${bare}]` : bare;
}

/** The TLS server name: the configured SNI, otherwise the host. */
export function serverName(proxy: ResolvedProxy): string {
  return proxy.tls.sni || bareHost(proxy.host);
}

/** The uTLS fingerprint: the configured one; REALITY cannot work without one, so it gets `chrome` by default. */
export function fingerprintOf(proxy: ResolvedProxy): string | undefined {
  return proxy.tls.fingerprint || (proxy.tls.mode === 'reality' ? 'chrome' : undefined);
}

/** hysteria2 and TUIC run over QUIC: TLS is always on and ALPN defaults to h3. */
export function isQuic(proxy: ResolvedProxy): boolean {
  return proxy.protocol === 'hysteria2' || proxy.protocol === 'tuic';
}

export function alpnOf(proxy: ResolvedProxy): string[] | undefined {
  if (proxy.tls.alpn && proxy.tls.alpn.length > 0) return proxy.tls.alpn;
  return isQuic(proxy) ? ['h3'] : undefined;
}

/**
 * Xray writes WebSocket early data into the path (`/ws?ed=2048`). Xray-based clients read it from there; Clash and
 * sing-box want it as separate options and the path without it.
 */
export function splitEarlyData(path: string | undefined): { path: string; maxEarlyData?: number } {
  const full = path || '/';
  const at = full.indexOf('?');
  if (at < 0) return { path: full };
  const params = new URLSearchParams(full.slice(at + 1));
  const ed = params.get('ed');
  if (ed === null || !/^\d+$/.test(ed) || Number(ed) <= 0) return { path: full };
  params.delete('ed');
  const rest = params.toString();
  return { path: full.slice(0, at) + (rest ? `?${rest}` : ''), maxEarlyData: Number(ed) };
}

/** A node's display name; a blank one gets a stable stand-in. */
export function displayName(proxy: ResolvedProxy): string {
  const name = proxy.name.trim();
  return name || `${proxy.protocol}-${proxy.id}`;
}

/** The name itself when free, otherwise the first free `name (n)`; the name returned is then taken. */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name} (${n})`;
  taken.add(candidate);
  return candidate;
}

/** The main group is named after the service, which clients show as the profile's title. */
export function mainGroupName(title: string): string {
  return title.trim() || 'Proxy';
}

/** A shadowsocks node cannot be written without its cipher; a node without one is a data error, not a choice. */
export function requireCipher(proxy: ResolvedProxy): NonNullable<ResolvedProxy['cipher']> {
  if (!proxy.cipher) throw new Error(`shadowsocks node ${proxy.id} has no cipher`);
  return proxy.cipher;
}
