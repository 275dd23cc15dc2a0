import { z } from 'zod';
import { NETWORKS, PROTOCOLS, type Protocol, SS_CIPHERS, TLS_MODES } from './proxy.model.js';

/** Transport, TLS and protocol settings of a node, kept as JSON: which apply depends on the protocol. */
export const NodeSettingsSchema = z.object({
  network: z.enum(NETWORKS).default('tcp'),
  path: z.string().max(255).optional(),
  hostHeader: z.string().max(255).optional(),
  serviceName: z.string().max(255).optional(),
  tls: z.enum(TLS_MODES).default('none'),
  sni: z.string().max(255).optional(),
  fingerprint: z.string().max(32).optional(),
  allowInsecure: z.boolean().optional(),
  flow: z.string().max(32).optional(),
  realityPublicKey: z.string().max(128).optional(),
  realityPrivateKey: z.string().max(128).optional(),
  realityShortId: z.string().max(32).optional(),
  cipher: z.enum(SS_CIPHERS).optional(),
  /** Shadowsocks 2022: the server's own key (base64), drawn when the node is added. */
  serverKey: z.string().max(128).optional(),
  obfsPassword: z.string().max(128).optional(),
  congestionControl: z.enum(['bbr', 'cubic', 'new_reno']).optional(),
});
export type NodeSettings = z.infer<typeof NodeSettingsSchema>;

export const NodeProtocolSchema = z.enum(PROTOCOLS);

/** Bytes of a Shadowsocks 2022 key for each cipher. */
export function ss2022KeyLength(cipher: string | undefined): number | undefined {
  if (cipher === '2022-blake3-aes-128-gcm') return 16;
  if (cipher === '2022-blake3-aes-256-gcm' || cipher === '2022-blake3-chacha20-poly1305') return 32;
  return undefined;
}

/** The settings an operator chooses (the Shadowsocks 2022 server key is drawn, never chosen). */
export const SETTING_KEYS = [
  'network',
  'path',
  'hostHeader',
  'serviceName',
  'tls',
  'sni',
  'fingerprint',
  'flow',
  'realityPublicKey',
  'realityPrivateKey',
  'realityShortId',
  'cipher',
  'obfsPassword',
  'congestionControl',
] as const satisfies ReadonlyArray<keyof NodeSettings>;
export type SettingKey = (typeof SETTING_KEYS)[number];
export type GivenSettings = Partial<Pick<NodeSettings, SettingKey>>;

/** The protocols that take a transport (`network`) and a choice of TLS. */
export const TRANSPORT_PROTOCOLS: readonly Protocol[] = ['vless', 'vmess', 'trojan'];

/** Trojan, Hysteria 2 and TUIC always run over TLS; Shadowsocks never does. */
export function tlsOf(node: { protocol: Protocol; settings: Pick<NodeSettings, 'tls'> }): NodeSettings['tls'] {
  if (node.protocol === 'shadowsocks') return 'none';
  if (node.protocol === 'vless' || node.protocol === 'vmess') return node.settings.tls;
  return 'tls';
}

/** Settings that do not fit the node's protocol, transport or TLS, or that it lacks; the message says which. */
export class NodeSettingsError extends Error {}

/** How the caller names a setting to the operator: a flag (`--tls`) on the command line, a field in a console. */
export type SettingName = (key: SettingKey) => string;

const joined = (items: readonly string[], last: 'and' | 'or') =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;

/** Why a setting does not apply to the node as it would be, or undefined when it does. */
function misfit(key: SettingKey, protocol: Protocol, settings: NodeSettings, name: SettingName): string | undefined {
  const onlyFor = (...protocols: Protocol[]) =>
    protocols.includes(protocol) ? undefined : `applies only to ${joined(protocols, 'and')} nodes, not ${protocol}`;
  const tls = tlsOf({ protocol, settings });
  const needsTls = tls === 'none' ? `needs ${name('tls')} tls or reality` : undefined;
  switch (key) {
    case 'network':
    case 'tls':
      return onlyFor(...TRANSPORT_PROTOCOLS);
    case 'path':
    case 'hostHeader':
      return (
        onlyFor(...TRANSPORT_PROTOCOLS) ??
        (settings.network === 'ws' || settings.network === 'httpupgrade'
          ? undefined
          : `needs ${name('network')} ws or httpupgrade`)
      );
    case 'serviceName':
      return (
        onlyFor(...TRANSPORT_PROTOCOLS) ?? (settings.network === 'grpc' ? undefined : `needs ${name('network')} grpc`)
      );
    case 'sni':
      return protocol === 'shadowsocks' ? 'does not apply to shadowsocks nodes' : needsTls;
    case 'fingerprint':
      return onlyFor(...TRANSPORT_PROTOCOLS) ?? needsTls;
    case 'flow':
      return onlyFor('vless') ?? needsTls ?? (settings.network !== 'tcp' ? `needs ${name('network')} tcp` : undefined);
    case 'realityPublicKey':
    case 'realityPrivateKey':
    case 'realityShortId':
      return onlyFor('vless') ?? (tls === 'reality' ? undefined : `needs ${name('tls')} reality`);
    case 'cipher':
      return onlyFor('shadowsocks');
    case 'obfsPassword':
      return onlyFor('hysteria2');
    case 'congestionControl':
      return onlyFor('tuic');
  }
}

/**
 * A node's settings for its protocol: the given ones over the stored ones. A given setting that does not apply to the
 * protocol (or to the transport or TLS chosen) is refused, naming it; a stored setting that no longer applies is
 * dropped (undefined, so that an update clears it). Then what the protocol needs must be there. The command line
 * and the operator console both set a node's settings through this.
 */
export function settingsFor(
  protocol: Protocol,
  stored: NodeSettings,
  given: GivenSettings,
  name: SettingName,
): NodeSettings {
  const settings: NodeSettings = { ...stored, ...given };
  const isGiven = (key: SettingKey) => given[key] !== undefined;
  // The transport and the TLS mode first: whether the others apply depends on them.
  if (!TRANSPORT_PROTOCOLS.includes(protocol)) {
    for (const key of ['network', 'tls'] as const) {
      if (isGiven(key)) throw new NodeSettingsError(`${name(key)} ${misfit(key, protocol, settings, name)}`);
    }
    settings.network = 'tcp';
    settings.tls = 'none';
  } else if (settings.tls === 'reality' && protocol !== 'vless') {
    if (isGiven('tls'))
      throw new NodeSettingsError(`${name('tls')} reality applies only to vless nodes, not ${protocol}`);
    settings.tls = 'tls';
  } else if (protocol === 'trojan' && settings.tls === 'none') {
    if (isGiven('tls')) {
      throw new NodeSettingsError(`${name('tls')} none does not apply to trojan nodes: they always use TLS`);
    }
    settings.tls = 'tls';
  }
  for (const key of SETTING_KEYS) {
    if (key === 'network' || key === 'tls' || settings[key] === undefined) continue;
    const problem = misfit(key, protocol, settings, name);
    if (!problem) continue;
    if (isGiven(key)) throw new NodeSettingsError(`${name(key)} ${problem}`);
    settings[key] = undefined;
  }
  if (protocol === 'shadowsocks' && !settings.cipher) {
    throw new NodeSettingsError(`a shadowsocks node needs ${name('cipher')}: ${joined(SS_CIPHERS, 'or')}`);
  }
  if (protocol === 'vless' && settings.tls === 'reality') {
    const missing = (['realityPublicKey', 'realityPrivateKey', 'sni'] as const).filter((key) => !settings[key]);
    if (missing.length) {
      throw new NodeSettingsError(
        `${name('tls')} reality needs ${joined(missing.map(name), 'and')}` +
          (missing.includes('sni') ? ` (${name('sni')}: the site it borrows, e.g. www.microsoft.com)` : ''),
      );
    }
  }
  return settings;
}
