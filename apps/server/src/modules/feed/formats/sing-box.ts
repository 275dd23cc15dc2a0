/**
 * A complete sing-box configuration for the official graphical clients (SFA, SFI, SFM, SFT): each node as its
 * outbound, a selector named after the service, an `Auto` urltest, `direct`, a tun inbound, DNS and a route whose
 * final outbound is the selector. Hiddify and Karing read only the `outbounds` of it.
 *
 * The parts whose schema changed follow the client's core version (sing-box.sagernet.org/deprecated, /migration):
 * - below 1.10 the tun address is `inet4_address`/`inet6_address` (merged into `address` in 1.10, removed in 1.12);
 * - below 1.11 sniffing is an inbound field and DNS is hijacked by routing to a `dns` outbound; from 1.11 both are
 *   rule actions (`sniff`, `hijack-dns`), and the legacy special outbounds and inbound fields were removed in 1.13;
 * - below 1.12 DNS servers are written as `address` URLs and outbound server names are resolved by an `outbound: any`
 *   DNS rule; from 1.12 servers have a `type` and `server`, resolution of server names is `route.default_domain_resolver`
 *   (the legacy form was removed in 1.14), and a new server must not detour to an empty direct outbound.
 * An unknown version gets the newest form: its outbounds are the same in every version, and that is all the clients
 * that do not say their version (Hiddify, Karing) take from it.
 */

import type { ResolvedProxy } from '../../nodes/proxy.model.js';
import type { FeedInput, RenderedFeed, SingBoxVersion } from '../feed-format.js';
import {
  AUTO_GROUP,
  alpnOf,
  bareHost,
  displayName,
  fingerprintOf,
  isQuic,
  mainGroupName,
  requireCipher,
  serverName,
  splitEarlyData,
  URL_TEST,
  uniqueName,
} from './common.js';

export const SING_BOX_CONTENT_TYPE = 'application/json; charset=utf-8';

type Json = Record<string, unknown>;

/** Which side of each schema change a client's version is on; no version means the newest. */
export function singBoxFeatures(version?: SingBoxVersion) {
  const atLeast = (major: number, minor: number) =>
    !version || version.major > major || (version.major === major && version.minor >= minor);
  return { tunAddress: atLeast(1, 10), ruleActions: atLeast(1, 11), typedDnsServers: atLeast(1, 12) };
}

const DIRECT = 'direct';
const DNS_OUT = 'dns-out';
const DNS_REMOTE = 'dns-remote';
const DNS_LOCAL = 'dns-local';
const TUN_INET4 = '172.19.0.1/30';
const TUN_INET6 = 'fdfe:dcba:9876::1/126';

export function renderSingBox(input: FeedInput, version?: SingBoxVersion): RenderedFeed {
  const features = singBoxFeatures(version);
  const taken = new Set([DIRECT, DNS_OUT]);
  const nodes = input.proxies.map((proxy) => outbound(proxy, uniqueName(displayName(proxy), taken)));
  const tags = nodes.map((node) => node.tag as string);
  const main = uniqueName(mainGroupName(input.title), taken);

  const outbounds: Json[] = [];
  if (tags.length > 0) {
    const auto = uniqueName(AUTO_GROUP, taken);
    outbounds.push(
      { type: 'selector', tag: main, outbounds: [auto, ...tags, DIRECT], default: auto },
      {
        type: 'urltest',
        tag: auto,
        outbounds: tags,
        url: URL_TEST.url,
        interval: `${URL_TEST.intervalSeconds / 60}m`,
        tolerance: URL_TEST.toleranceMs,
      },
    );
  } else {
    // No node the user may use: the selector still has a member, so the configuration stays valid.
    outbounds.push({ type: 'selector', tag: main, outbounds: [DIRECT] });
  }
  outbounds.push(...nodes, { type: 'direct', tag: DIRECT });
  if (!features.ruleActions) outbounds.push({ type: 'dns', tag: DNS_OUT });

  const config = {
    log: { level: 'warn', timestamp: true },
    dns: features.typedDnsServers
      ? {
          servers: [
            { type: 'https', tag: DNS_REMOTE, server: '1.1.1.1', detour: main },
            { type: 'local', tag: DNS_LOCAL },
          ],
          final: DNS_REMOTE,
        }
      : {
          servers: [
            { tag: DNS_REMOTE, address: 'https://1.1.1.1/dns-query', detour: main },
            { tag: DNS_LOCAL, address: 'local', detour: DIRECT },
          ],
          rules: [{ outbound: 'any', server: DNS_LOCAL }],
          final: DNS_REMOTE,
        },
    inbounds: [
      {
        type: 'tun',
        tag: 'tun-in',
        ...(features.tunAddress
          ? { address: [TUN_INET4, TUN_INET6] }
          : { inet4_address: TUN_INET4, inet6_address: TUN_INET6 }),
        auto_route: true,
        strict_route: true,
        ...(features.ruleActions ? {} : { sniff: true }),
      },
    ],
    outbounds,
    route: {
      rules: features.ruleActions
        ? [{ action: 'sniff' }, { protocol: 'dns', action: 'hijack-dns' }, { ip_is_private: true, outbound: DIRECT }]
        : [
            { protocol: 'dns', outbound: DNS_OUT },
            { ip_is_private: true, outbound: DIRECT },
          ],
      final: main,
      auto_detect_interface: true,
      ...(features.typedDnsServers ? { default_domain_resolver: DNS_LOCAL } : {}),
    },
  };
  return { body: `${JSON.stringify(config, null, 2)}\n`, contentType: SING_BOX_CONTENT_TYPE };
}

function outbound(proxy: ResolvedProxy, tag: string): Json {
  const base = { tag, server: bareHost(proxy.host), server_port: proxy.port };
  switch (proxy.protocol) {
    case 'vless':
      return {
        type: 'vless',
        ...base,
        uuid: proxy.uuid,
        ...(proxy.flow ? { flow: proxy.flow } : {}),
        ...tlsOf(proxy),
        ...transportOf(proxy),
      };
    case 'vmess':
      return {
        type: 'vmess',
        ...base,
        uuid: proxy.uuid,
        security: 'auto',
        alter_id: 0,
        ...tlsOf(proxy),
        ...transportOf(proxy),
      };
    case 'trojan':
      return { type: 'trojan', ...base, password: proxy.password, ...tlsOf(proxy), ...transportOf(proxy) };
    case 'shadowsocks':
      return { type: 'shadowsocks', ...base, method: requireCipher(proxy), password: proxy.password };
    case 'hysteria2':
      return {
        type: 'hysteria2',
        ...base,
        password: proxy.password,
        ...(proxy.obfsPassword ? { obfs: { type: 'salamander', password: proxy.obfsPassword } } : {}),
        ...tlsOf(proxy),
      };
    case 'tuic':
      return {
        type: 'tuic',
        ...base,
        uuid: proxy.uuid,
        password: proxy.password,
        ...(proxy.congestionControl ? { congestion_control: proxy.congestionControl } : {}),
        udp_relay_mode: 'native',
        ...tlsOf(proxy),
      };
  }
}

/** The outbound TLS object; QUIC protocols always have one, and uTLS does not apply to them. */
function tlsOf(proxy: ResolvedProxy): Json {
  const { tls } = proxy;
  const quic = isQuic(proxy);
  if (tls.mode === 'none' && !quic) return {};
  const fingerprint = quic ? undefined : fingerprintOf(proxy);
  const alpn = alpnOf(proxy);
  return {
    tls: {
      enabled: true,
      server_name: serverName(proxy),
      ...(tls.allowInsecure ? { insecure: true } : {}),
      ...(alpn ? { alpn } : {}),
      ...(fingerprint ? { utls: { enabled: true, fingerprint } } : {}),
      ...(tls.mode === 'reality' && !quic
        ? { reality: { enabled: true, public_key: tls.realityPublicKey ?? '', short_id: tls.realityShortId ?? '' } }
        : {}),
    },
  };
}

/** The V2Ray transport object; plain TCP has none. */
function transportOf(proxy: ResolvedProxy): Json {
  const { transport } = proxy;
  switch (transport.network) {
    case 'tcp':
      return {};
    case 'grpc':
      return { transport: { type: 'grpc', service_name: transport.serviceName ?? '' } };
    case 'httpupgrade':
      return {
        transport: {
          type: 'httpupgrade',
          ...(transport.host ? { host: transport.host } : {}),
          path: transport.path || '/',
        },
      };
    case 'ws': {
      const { path, maxEarlyData } = splitEarlyData(transport.path);
      return {
        transport: {
          type: 'ws',
          path,
          ...(transport.host ? { headers: { Host: transport.host } } : {}),
          ...(maxEarlyData ? { max_early_data: maxEarlyData, early_data_header_name: 'Sec-WebSocket-Protocol' } : {}),
        },
      };
    }
  }
}
