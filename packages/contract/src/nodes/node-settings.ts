/**
 * The protocols a node serves and which of its settings each takes: the rules the command line and the console's
 * node form share (the console shows only the fields that apply; the server refuses the others).
 */
export const PROTOCOLS = ['vless', 'vmess', 'trojan', 'shadowsocks', 'hysteria2', 'tuic'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export const NETWORKS = ['tcp', 'ws', 'grpc', 'httpupgrade'] as const;
export type Network = (typeof NETWORKS)[number];

export const TLS_MODES = ['none', 'tls', 'reality'] as const;
export type TlsMode = (typeof TLS_MODES)[number];

export const SS_CIPHERS = [
  'aes-128-gcm',
  'aes-256-gcm',
  'chacha20-ietf-poly1305',
  '2022-blake3-aes-128-gcm',
  '2022-blake3-aes-256-gcm',
  '2022-blake3-chacha20-poly1305',
] as const;
export type SsCipher = (typeof SS_CIPHERS)[number];

export const FINGERPRINTS = [
  'chrome',
  'firefox',
  'safari',
  'ios',
  'android',
  'edge',
  '360',
  'qq',
  'random',
  'randomized',
] as const;
export const FLOWS = ['xtls-rprx-vision'] as const;
export const CONGESTION_CONTROLS = ['bbr', 'cubic', 'new_reno'] as const;

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
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** A node's settings as stored: the chosen ones, and what the server adds (allowInsecure, the SS 2022 key). */
export type NodeSettingValues = {
  network: Network;
  tls: TlsMode;
  path?: string | undefined;
  hostHeader?: string | undefined;
  serviceName?: string | undefined;
  sni?: string | undefined;
  fingerprint?: string | undefined;
  allowInsecure?: boolean | undefined;
  flow?: string | undefined;
  realityPublicKey?: string | undefined;
  realityPrivateKey?: string | undefined;
  realityShortId?: string | undefined;
  cipher?: SsCipher | undefined;
  serverKey?: string | undefined;
  obfsPassword?: string | undefined;
  congestionControl?: (typeof CONGESTION_CONTROLS)[number] | undefined;
};
export type GivenSettings = Partial<Pick<NodeSettingValues, SettingKey>>;

/** The protocols that take a transport (`network`) and a choice of TLS. */
export const TRANSPORT_PROTOCOLS: readonly Protocol[] = ['vless', 'vmess', 'trojan'];

/** Trojan, Hysteria 2 and TUIC always run over TLS; Shadowsocks never does. */
export function tlsOf(node: { protocol: Protocol; settings: Pick<NodeSettingValues, 'tls'> }): TlsMode {
  if (node.protocol === 'shadowsocks') return 'none';
  if (node.protocol === 'vless' || node.protocol === 'vmess') return node.settings.tls;
  return 'tls';
}

/** Settings that do not fit the node's protocol, transport or TLS, or that it lacks; `key` names the setting. */
export class NodeSettingsError extends Error {
  constructor(
    message: string,
    readonly key: SettingKey,
  ) {
    super(message);
    this.name = 'NodeSettingsError';
  }
}

/** How the caller names a setting to the operator: a flag (`--tls`) on the command line, a field in a console. */
export type SettingName = (key: SettingKey) => string;

const joined = (items: readonly string[], last: 'and' | 'or') =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;

/** Why a setting does not apply to the node as it would be, or undefined when it does. */
export function misfit(
  key: SettingKey,
  protocol: Protocol,
  settings: Pick<NodeSettingValues, 'network' | 'tls'>,
  name: SettingName,
): string | undefined {
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

/** The settings a form shows for the protocol, transport and TLS chosen so far: those that apply to them. */
export function settingKeysFor(protocol: Protocol, settings: Pick<NodeSettingValues, 'network' | 'tls'>): SettingKey[] {
  return SETTING_KEYS.filter((key) => misfit(key, protocol, settings, (k) => k) === undefined);
}

/** The TLS modes a protocol may choose between (the first is its default). */
export function tlsModesFor(protocol: Protocol): readonly TlsMode[] {
  if (protocol === 'vless') return TLS_MODES;
  if (protocol === 'vmess') return ['none', 'tls'];
  return protocol === 'shadowsocks' ? ['none'] : ['tls'];
}

/**
 * A node's settings for its protocol: the given ones over the stored ones. A given setting that does not apply to the
 * protocol (or to the transport or TLS chosen) is refused, naming it; a stored setting that no longer applies is
 * dropped (undefined, so that an update clears it). Then what the protocol needs must be there. The command line
 * and the operator console both set a node's settings through this.
 */
export function settingsFor<S extends NodeSettingValues>(
  protocol: Protocol,
  stored: S,
  given: GivenSettings,
  name: SettingName,
): S {
  const settings: S = { ...stored, ...given };
  const isGiven = (key: SettingKey) => given[key] !== undefined;
  // The transport and the TLS mode first: whether the others apply depends on them.
  if (!TRANSPORT_PROTOCOLS.includes(protocol)) {
    // Their transport and TLS are fixed: given as they are fixed, they say nothing new.
    const fixed = { network: 'tcp', tls: tlsOf({ protocol, settings: { tls: 'none' } }) } as const;
    for (const key of ['network', 'tls'] as const) {
      if (isGiven(key) && given[key] !== fixed[key]) {
        throw new NodeSettingsError(`${name(key)} ${misfit(key, protocol, settings, name)}`, key);
      }
    }
    settings.network = 'tcp';
    settings.tls = 'none';
  } else if (settings.tls === 'reality' && protocol !== 'vless') {
    if (isGiven('tls'))
      throw new NodeSettingsError(`${name('tls')} reality applies only to vless nodes, not ${protocol}`, 'tls');
    settings.tls = 'tls';
  } else if (protocol === 'trojan' && settings.tls === 'none') {
    if (isGiven('tls')) {
      throw new NodeSettingsError(`${name('tls')} none does not apply to trojan nodes: they always use TLS`, 'tls');
    }
    settings.tls = 'tls';
  }
  for (const key of SETTING_KEYS) {
    if (key === 'network' || key === 'tls' || settings[key] === undefined) continue;
    const problem = misfit(key, protocol, settings, name);
    if (!problem) continue;
    if (isGiven(key)) throw new NodeSettingsError(`${name(key)} ${problem}`, key);
    settings[key] = undefined;
  }
  if (protocol === 'shadowsocks' && !settings.cipher) {
    throw new NodeSettingsError(`a shadowsocks node needs ${name('cipher')}: ${joined(SS_CIPHERS, 'or')}`, 'cipher');
  }
  if (protocol === 'vless' && settings.tls === 'reality') {
    const missing = (['realityPublicKey', 'realityPrivateKey', 'sni'] as const).filter((key) => !settings[key]);
    const first = missing[0];
    if (first) {
      throw new NodeSettingsError(
        `${name('tls')} reality needs ${joined(missing.map(name), 'and')}` +
          (missing.includes('sni') ? ` (${name('sni')}: the site it borrows, e.g. www.microsoft.com)` : ''),
        first,
      );
    }
  }
  return settings;
}
