import type { NodeView } from '../nodes/nodes.service.js';
import { etagOf } from './etag.js';

/** How often agents pull configuration and users, and push traffic, in seconds. */
export const PULL_INTERVAL_SECONDS = 60;
export const PUSH_INTERVAL_SECONDS = 60;

/** V2bX's security codes. */
const SECURITY = { none: 0, tls: 1, reality: 2 } as const;

function networkSettings(node: NodeView): Record<string, unknown> {
  const { settings } = node;
  switch (settings.network) {
    case 'ws':
      return { path: settings.path ?? '/', ...(settings.hostHeader ? { headers: { Host: settings.hostHeader } } : {}) };
    case 'grpc':
      return { serviceName: settings.serviceName ?? '' };
    case 'httpupgrade':
      return { path: settings.path ?? '/', ...(settings.hostHeader ? { host: settings.hostHeader } : {}) };
    default:
      return {};
  }
}

/** The configuration's JSON, as the bytes sent, and its quoted-hash ETag. */
export function uniProxyConfigAnswer(node: NodeView): { body: Buffer; etag: string } {
  const body = Buffer.from(JSON.stringify(uniProxyConfig(node)));
  return { body, etag: etagOf(body) };
}

/**
 * The node's configuration in the shape V2Board's UniProxy answers and V2bX and XrayR read: field names and types as
 * those agents declare them (ports as numbers except `tls_settings.server_port`, which V2bX reads as a string).
 */
function uniProxyConfig(node: NodeView): Record<string, unknown> {
  const { settings } = node;
  const serverName = settings.sni ?? node.host;
  const common = {
    host: node.host,
    server_port: node.port,
    server_name: serverName,
    base_config: { push_interval: PUSH_INTERVAL_SECONDS, pull_interval: PULL_INTERVAL_SECONDS },
    routes: [] as unknown[],
  };
  switch (node.protocol) {
    case 'vless':
    case 'vmess': {
      const network = networkSettings(node);
      return {
        ...common,
        network: settings.network,
        network_settings: network,
        networkSettings: network,
        tls: SECURITY[settings.tls],
        tls_settings: {
          server_name: serverName,
          server_port: '443',
          short_id: settings.realityShortId ?? '',
          private_key: settings.realityPrivateKey ?? '',
        },
        flow: node.protocol === 'vless' ? (settings.flow ?? '') : '',
      };
    }
    case 'trojan': {
      const network = networkSettings(node);
      return { ...common, network: settings.network, network_settings: network, networkSettings: network };
    }
    case 'shadowsocks':
      return {
        ...common,
        cipher: settings.cipher ?? 'aes-128-gcm',
        ...(settings.serverKey ? { server_key: settings.serverKey } : {}),
      };
    case 'hysteria2':
      return {
        ...common,
        version: 2,
        up_mbps: 0,
        down_mbps: 0,
        ignore_client_bandwidth: false,
        obfs: settings.obfsPassword ? 'salamander' : '',
        'obfs-password': settings.obfsPassword ?? '',
      };
    case 'tuic':
      return { ...common, congestion_control: settings.congestionControl ?? 'bbr', zero_rtt_handshake: false };
  }
}
