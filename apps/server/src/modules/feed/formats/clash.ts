/**
 * A Clash Meta (mihomo) profile: the nodes in mihomo's own field names and types (wiki.metacubex.one/config/proxies),
 * a select group named after the service, an `Auto` url-test group, and a small neutral rule set.
 *
 * Every string value is written double-quoted, so that no YAML reader (mihomo's Go reader, Clash Verge's Rust one,
 * FlClash's Dart one) can take a short-id, a password or a name for a number, a boolean or a date.
 */
import type { ResolvedProxy } from '../../nodes/proxy.model.js';
import type { FeedInput, RenderedFeed } from '../feed-format.js';
import { toBlockYaml, type YamlValue } from './block-yaml.js';
import {
  AUTO_GROUP,
  alpnOf,
  bareHost,
  displayName,
  fingerprintOf,
  mainGroupName,
  requireCipher,
  serverName,
  splitEarlyData,
  URL_TEST,
  uniqueName,
} from './common.js';

export const CLASH_CONTENT_TYPE = 'text/yaml; charset=utf-8';

/**
 * Local and private addresses go direct, everything else through the main group. Written as IP-CIDR rules rather than
 * `GEOIP,LAN`: some mihomo releases load (and first download) the GeoIP database for any GEOIP rule, LAN included,
 * and refuse the whole profile when that download fails.
 */
const LOCAL_RULES = [
  'IP-CIDR,127.0.0.0/8,DIRECT,no-resolve',
  'IP-CIDR,10.0.0.0/8,DIRECT,no-resolve',
  'IP-CIDR,172.16.0.0/12,DIRECT,no-resolve',
  'IP-CIDR,192.168.0.0/16,DIRECT,no-resolve',
  'IP-CIDR,169.254.0.0/16,DIRECT,no-resolve',
  'IP-CIDR6,::1/128,DIRECT,no-resolve',
  'IP-CIDR6,fc00::/7,DIRECT,no-resolve',
  'IP-CIDR6,fe80::/10,DIRECT,no-resolve',
];

/** Names mihomo keeps for itself; a node or group of that name would clash with them. */
const RESERVED_NAMES = ['DIRECT', 'REJECT', 'REJECT-DROP', 'PASS', 'COMPATIBLE', 'GLOBAL'];

type ClashProxy = { [key: string]: YamlValue | undefined };

export function renderClash(input: FeedInput): RenderedFeed {
  const taken = new Set(RESERVED_NAMES);
  const proxies = input.proxies.map((proxy) => clashProxy(proxy, uniqueName(displayName(proxy), taken)));
  const names = proxies.map((proxy) => proxy.name as string);
  // The main group is named in the MATCH rule, which mihomo splits on commas: the name cannot hold one.
  const main = uniqueName(mainGroupName(input.title.replace(/,/g, ' ').replace(/\s+/g, ' ')), taken);

  const groups: ClashProxy[] = [];
  if (names.length > 0) {
    const auto = uniqueName(AUTO_GROUP, taken);
    groups.push(
      { name: main, type: 'select', proxies: [auto, ...names, 'DIRECT'] },
      {
        name: auto,
        type: 'url-test',
        proxies: names,
        url: URL_TEST.url,
        interval: URL_TEST.intervalSeconds,
        tolerance: URL_TEST.toleranceMs,
      },
    );
  } else {
    // No node the user may use: the profile stays valid, and the one group is not empty.
    groups.push({ name: main, type: 'select', proxies: ['DIRECT'] });
  }

  const profile = {
    'mixed-port': 7890,
    'allow-lan': false,
    mode: 'rule',
    'log-level': 'info',
    proxies,
    'proxy-groups': groups,
    rules: [...LOCAL_RULES, `MATCH,${main}`],
  };
  return { body: toBlockYaml(profile), contentType: CLASH_CONTENT_TYPE };
}

function clashProxy(proxy: ResolvedProxy, name: string): ClashProxy {
  const base = (type: string) => ({ name, type, server: bareHost(proxy.host), port: proxy.port, udp: true });
  switch (proxy.protocol) {
    case 'vless':
      return {
        ...base('vless'),
        uuid: proxy.uuid,
        ...(proxy.flow ? { flow: proxy.flow } : {}),
        ...streamTls(proxy, 'servername', true),
        ...transport(proxy),
      };
    case 'vmess':
      return {
        ...base('vmess'),
        uuid: proxy.uuid,
        alterId: 0,
        cipher: 'auto',
        ...streamTls(proxy, 'servername', true),
        ...transport(proxy),
      };
    case 'trojan':
      // Trojan always speaks TLS in mihomo: there is no `tls` switch, and the server name is `sni`.
      return { ...base('trojan'), password: proxy.password, ...streamTls(proxy, 'sni', false), ...transport(proxy) };
    case 'shadowsocks':
      return { ...base('ss'), cipher: requireCipher(proxy), password: proxy.password };
    case 'hysteria2':
      return {
        ...base('hysteria2'),
        password: proxy.password,
        ...(proxy.obfsPassword ? { obfs: 'salamander', 'obfs-password': proxy.obfsPassword } : {}),
        ...quicTls(proxy),
      };
    case 'tuic':
      return {
        ...base('tuic'),
        uuid: proxy.uuid,
        password: proxy.password,
        ...(proxy.congestionControl ? { 'congestion-controller': proxy.congestionControl } : {}),
        'udp-relay-mode': 'native',
        ...quicTls(proxy),
      };
  }
}

/** TLS of the TCP protocols: the switch (vless, vmess), server name, uTLS fingerprint, ALPN, REALITY. */
function streamTls(proxy: ResolvedProxy, nameKey: 'servername' | 'sni', hasSwitch: boolean): ClashProxy {
  const { tls } = proxy;
  if (tls.mode === 'none') return hasSwitch ? { tls: false } : {};
  const fingerprint = fingerprintOf(proxy);
  const alpn = alpnOf(proxy);
  return {
    ...(hasSwitch ? { tls: true } : {}),
    [nameKey]: serverName(proxy),
    ...(fingerprint ? { 'client-fingerprint': fingerprint } : {}),
    ...(alpn ? { alpn } : {}),
    'skip-cert-verify': tls.allowInsecure === true,
    ...(tls.mode === 'reality'
      ? { 'reality-opts': { 'public-key': tls.realityPublicKey ?? '', 'short-id': tls.realityShortId ?? '' } }
      : {}),
  };
}

/** TLS of hysteria2 and TUIC: always on, ALPN h3 unless set. */
function quicTls(proxy: ResolvedProxy): ClashProxy {
  return {
    sni: serverName(proxy),
    alpn: alpnOf(proxy),
    'skip-cert-verify': proxy.tls.allowInsecure === true,
  };
}

/** network and its options; mihomo writes HTTPUpgrade as a ws variant. */
function transport(proxy: ResolvedProxy): ClashProxy {
  const { transport } = proxy;
  switch (transport.network) {
    case 'tcp':
      return { network: 'tcp' };
    case 'grpc':
      return { network: 'grpc', 'grpc-opts': { 'grpc-service-name': transport.serviceName ?? '' } };
    case 'ws':
    case 'httpupgrade': {
      const { path, maxEarlyData } = splitEarlyData(transport.path);
      const upgrade = transport.network === 'httpupgrade';
      const early = maxEarlyData
        ? upgrade
          ? { 'v2ray-http-upgrade-fast-open': true }
          : { 'max-early-data': maxEarlyData, 'early-data-header-name': 'Sec-WebSocket-Protocol' }
        : {};
      return {
        network: 'ws',
        'ws-opts': {
          path,
          ...(transport.host ? { headers: { Host: transport.host } } : {}),
          ...(upgrade ? { 'v2ray-http-upgrade': true } : {}),
          ...early,
        },
      };
    }
  }
}
