/**
 * The share-link list read by v2rayN, v2rayNG, Shadowrocket, FoXray, Streisand and their kin: one link a line, the
 * whole list in standard padded base64.
 *
 * Each link is written the way those clients write and parse it (v2rayN `ServiceLib/Handler/Fmt`, v2rayNG `fmt/`):
 * - vless, trojan: `scheme://credential@host:port?query#name`, query keys as Xray's share standard names them;
 * - vmess: `vmess://` + standard base64 of v2rayN's JSON, every value a string (v2rayN writes `port` and `aid` as
 *   strings; v2rayNG and others declare them as strings and would drop a node whose field is another type);
 * - ss: SIP002 — `base64url(method:password)` for stream/AEAD ciphers, and for 2022 ciphers the plain,
 *   percent-encoded `method:password` that SIP002 requires (the password holds `:` and base64's `+/=`);
 * - hysteria2: the official URI scheme; tuic: the `uuid:password` form v2rayN and mihomo read.
 * Query values and names are percent-encoded; IPv6 hosts are bracketed.
 */
import type { ResolvedProxy } from '../../nodes/proxy.model.js';
import type { FeedInput, RenderedFeed } from '../feed-format.js';
import { alpnOf, bareHost, displayName, fingerprintOf, requireCipher, serverName, uriHost } from './common.js';

export const SHARE_LINKS_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** The links one a line, the whole in standard padded base64. */
export function renderShareLinks(input: FeedInput): RenderedFeed {
  const text = input.proxies.map(shareLink).join('\n');
  return { body: Buffer.from(text, 'utf8').toString('base64'), contentType: SHARE_LINKS_CONTENT_TYPE };
}

/** One node's share link. */
export function shareLink(proxy: ResolvedProxy): string {
  switch (proxy.protocol) {
    case 'vless':
      return vlessLink(proxy);
    case 'vmess':
      return vmessLink(proxy);
    case 'trojan':
      return trojanLink(proxy);
    case 'shadowsocks':
      return shadowsocksLink(proxy);
    case 'hysteria2':
      return hysteria2Link(proxy);
    case 'tuic':
      return tuicLink(proxy);
  }
}

type Query = [string, string | undefined][];

function link(scheme: string, userinfo: string, proxy: ResolvedProxy, query: Query): string {
  const pairs = query
    .filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== '')
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`);
  const search = pairs.length > 0 ? `?${pairs.join('&')}` : '';
  return `${scheme}://${userinfo}@${uriHost(proxy.host)}:${proxy.port}${search}#${encodeURIComponent(displayName(proxy))}`;
}

/** security, sni, fp, pbk, sid, alpn and allowInsecure, as Xray's share links carry them. */
function securityQuery(proxy: ResolvedProxy): Query {
  const { tls } = proxy;
  if (tls.mode === 'none') return [['security', 'none']];
  return [
    ['security', tls.mode],
    ['sni', serverName(proxy)],
    ['fp', fingerprintOf(proxy)],
    ['pbk', tls.mode === 'reality' ? tls.realityPublicKey : undefined],
    ['sid', tls.mode === 'reality' ? tls.realityShortId : undefined],
    ['alpn', alpnOf(proxy)?.join(',')],
    ['allowInsecure', tls.allowInsecure ? '1' : undefined],
  ];
}

/** type, and the transport's own keys: headerType for tcp, host and path for ws/httpupgrade, serviceName for grpc. */
function transportQuery(proxy: ResolvedProxy): Query {
  const { transport } = proxy;
  switch (transport.network) {
    case 'tcp':
      return [
        ['type', 'tcp'],
        ['headerType', 'none'],
      ];
    case 'ws':
    case 'httpupgrade':
      return [
        ['type', transport.network],
        ['host', transport.host],
        ['path', transport.path || '/'],
      ];
    case 'grpc':
      return [
        ['type', 'grpc'],
        ['serviceName', transport.serviceName],
      ];
  }
}

function vlessLink(proxy: ResolvedProxy): string {
  return link('vless', encodeURIComponent(proxy.uuid), proxy, [
    ['encryption', 'none'],
    ['flow', proxy.flow],
    ...securityQuery(proxy),
    ...transportQuery(proxy),
  ]);
}

function trojanLink(proxy: ResolvedProxy): string {
  return link('trojan', encodeURIComponent(proxy.password), proxy, [...securityQuery(proxy), ...transportQuery(proxy)]);
}

/** v2rayN's vmess JSON ("ver 2"): every field a string, `path` carrying the gRPC service name. */
function vmessLink(proxy: ResolvedProxy): string {
  const { transport, tls } = proxy;
  const secure = tls.mode !== 'none';
  const config = {
    v: '2',
    ps: displayName(proxy),
    add: bareHost(proxy.host),
    port: String(proxy.port),
    id: proxy.uuid,
    aid: '0',
    scy: 'auto',
    net: transport.network,
    type: 'none',
    host: transport.network === 'ws' || transport.network === 'httpupgrade' ? (transport.host ?? '') : '',
    path:
      transport.network === 'grpc'
        ? (transport.serviceName ?? '')
        : transport.network === 'tcp'
          ? ''
          : transport.path || '/',
    tls: secure ? 'tls' : '',
    sni: secure ? serverName(proxy) : '',
    alpn: secure ? (alpnOf(proxy)?.join(',') ?? '') : '',
    fp: secure ? (fingerprintOf(proxy) ?? '') : '',
  };
  return `vmess://${Buffer.from(JSON.stringify(config), 'utf8').toString('base64')}`;
}

function shadowsocksLink(proxy: ResolvedProxy): string {
  const cipher = requireCipher(proxy);
  const userinfo = cipher.startsWith('2022-')
    ? `${encodeURIComponent(cipher)}:${encodeURIComponent(proxy.password)}`
    : Buffer.from(`${cipher}:${proxy.password}`, 'utf8').toString('base64url');
  return link('ss', userinfo, proxy, []);
}

function hysteria2Link(proxy: ResolvedProxy): string {
  return link('hysteria2', encodeURIComponent(proxy.password), proxy, [
    ['sni', serverName(proxy)],
    ['alpn', proxy.tls.alpn?.join(',')],
    ['obfs', proxy.obfsPassword ? 'salamander' : undefined],
    ['obfs-password', proxy.obfsPassword],
    ['insecure', proxy.tls.allowInsecure ? '1' : '0'],
  ]);
}

function tuicLink(proxy: ResolvedProxy): string {
  return link('tuic', `${encodeURIComponent(proxy.uuid)}:${encodeURIComponent(proxy.password)}`, proxy, [
    ['congestion_control', proxy.congestionControl],
    ['alpn', alpnOf(proxy)?.join(',')],
    ['sni', serverName(proxy)],
    ['udp_relay_mode', 'native'],
    ['allow_insecure', proxy.tls.allowInsecure ? '1' : undefined],
  ]);
}
