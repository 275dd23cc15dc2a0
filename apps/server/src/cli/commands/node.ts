import { isIP } from 'node:net';
import {
  CONGESTION_CONTROLS,
  FINGERPRINTS,
  FLOWS,
  type GivenSettings,
  NETWORKS,
  NodeSettingsError,
  PROTOCOLS,
  type Protocol,
  REQUEST_LANGUAGES,
  type SettingKey,
  type SettingName,
  SS_CIPHERS,
  settingsFor,
  TLS_MODES,
  TRANSPORT_PROTOCOLS,
} from '@mutenet/contract';
import type { Localized } from '../../lib/localized.js';
import { localized } from '../../lib/localized.js';
import { agentsText } from '../../modules/nodes/node-agents.js';
import type { NodeSettings } from '../../modules/nodes/node-settings.js';
import type { NodeInput, NodeView } from '../../modules/nodes/nodes.service.js';
import {
  CommandError,
  command,
  type FlagSpec,
  flag,
  given,
  id,
  integer,
  type Noun,
  oneOf,
  type Parsed,
  text,
  UsageError,
} from '../command.js';
import type { AdminServices } from '../context.js';
import { keyValues, table, yesNo } from '../output.js';
import { hasTexts, merged, type Texts, texts } from '../texts.js';

const NAME_MAX = 64;
const LABEL_MAX = 32;
/** Labels are kept comma-separated in one column of 255 characters. */
const LABELS_MAX = 255;
const MAX_MAG = 100;
const FLAGS = {
  name: { value: 'TEXT', help: 'name in every language unless --name-pt or --name-zh say otherwise' },
  'name-pt': { value: 'TEXT', help: 'name in Portuguese (pt-BR)' },
  'name-zh': { value: 'TEXT', help: 'name in Chinese (zh-Hans)' },
  type: { value: PROTOCOLS.join('|'), help: 'the protocol the node serves' },
  host: { value: 'HOST', help: 'hostname or IP address clients connect to' },
  port: { value: 'N', help: 'port clients connect to, 1 to 65535' },
  mag: {
    value: 'RATE',
    help: `traffic on the node counts this many times, more than 0 and at most ${MAX_MAG} (default 1)`,
  },
  label: { value: 'A,B', help: 'tags customers see on the node status page, comma-separated ("" for none)' },
  hidden: { value: '', switch: true, help: 'keeps the node out of customers’ feeds and status page' },
  sort: { value: 'N', help: 'position in the list, smaller first (default 0)' },
  network: { value: NETWORKS.join('|'), help: 'vless, vmess, trojan: the transport (default tcp)' },
  path: { value: 'PATH', help: '--network ws or httpupgrade: the HTTP path (default /)' },
  'host-header': { value: 'HOST', help: '--network ws or httpupgrade: the Host header' },
  'service-name': { value: 'NAME', help: '--network grpc: the gRPC service name' },
  tls: {
    value: TLS_MODES.join('|'),
    help: 'vless: none, tls or reality; vmess: none or tls (default none); trojan: tls (always)',
  },
  sni: { value: 'HOST', help: 'TLS server name (default the host); with reality, the site it borrows' },
  fingerprint: {
    value: 'NAME',
    help: `vless, vmess, trojan over TLS: the uTLS fingerprint: ${FINGERPRINTS.join(', ')}`,
  },
  flow: { value: FLOWS.join('|'), help: 'vless over TLS or REALITY and tcp: the XTLS flow' },
  'reality-public-key': { value: 'KEY', help: '--tls reality: the x25519 public key (xray x25519)' },
  'reality-private-key': { value: 'KEY', help: '--tls reality: the x25519 private key, sent only to the node' },
  'reality-short-id': { value: 'HEX', help: '--tls reality: the short id, 0 to 16 hex digits' },
  cipher: { value: 'CIPHER', help: `shadowsocks (required): ${SS_CIPHERS.join(', ')}` },
  'obfs-password': { value: 'TEXT', help: 'hysteria2: the salamander obfuscation password' },
  'congestion-control': { value: CONGESTION_CONTROLS.join('|'), help: 'tuic: congestion control (default bbr)' },
} satisfies Record<string, FlagSpec>;

/** The settings the flags set, with the flag that sets each. */
const SETTING_FLAGS = {
  network: 'network',
  path: 'path',
  hostHeader: 'host-header',
  serviceName: 'service-name',
  tls: 'tls',
  sni: 'sni',
  fingerprint: 'fingerprint',
  flow: 'flow',
  realityPublicKey: 'reality-public-key',
  realityPrivateKey: 'reality-private-key',
  realityShortId: 'reality-short-id',
  cipher: 'cipher',
  obfsPassword: 'obfs-password',
  congestionControl: 'congestion-control',
} as const satisfies Record<SettingKey, keyof typeof FLAGS>;

/** What the flags of `add` or `update` say, each only when given. */
type NodeFlags = {
  names: Texts;
  labels?: string[];
  rate?: number;
  protocol?: Protocol;
  host?: string;
  port?: number;
  visible?: boolean;
  sort?: number;
  settings: GivenSettings;
};

// Values, checked one flag at a time.

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

function hostname(value: string, what: string): string {
  if (!HOSTNAME.test(value) || /^[\d.]+$/.test(value)) {
    throw new UsageError(`bad ${what} "${value}": must be a hostname such as node1.example.com`);
  }
  return value.toLowerCase();
}

function hostOrIp(value: string): string {
  if (isIP(value)) return value.toLowerCase();
  if (!HOSTNAME.test(value) || /^[\d.]+$/.test(value)) {
    throw new UsageError(`bad --host "${value}": must be a hostname or an IP address, such as node1.example.com`);
  }
  return value.toLowerCase();
}

function mag(value: string): number {
  const rate = /^\d{1,3}(\.\d{1,3})?$/.test(value) ? Number(value) : Number.NaN;
  if (!(rate > 0 && rate <= MAX_MAG)) {
    throw new UsageError(`bad --mag "${value}": must be more than 0 and at most ${MAX_MAG}, as 1 or 1.5`);
  }
  return rate;
}

function labels(value: string): string[] {
  const list = value
    .split(',')
    .map((label) => label.trim())
    .filter(Boolean);
  const long = list.find((label) => [...label].length > LABEL_MAX);
  if (long) throw new UsageError(`bad --label "${long}": a label must be at most ${LABEL_MAX} characters`);
  if (list.join(',').length > LABELS_MAX) throw new UsageError(`--label must be at most ${LABELS_MAX} characters`);
  return list;
}

function urlPath(value: string): string {
  if (!/^\/[\x21-\x7e]{0,254}$/.test(value)) {
    throw new UsageError(`bad --path "${value}": must start with / and have no spaces, as /ws`);
  }
  return value;
}

function realityKey(value: string, what: string): string {
  if (!/^[A-Za-z0-9_-]{43}$/.test(value)) {
    throw new UsageError(`bad ${what} "${value}": must be an x25519 key of 43 characters, as "xray x25519" prints`);
  }
  return value;
}

function shortId(value: string): string {
  if (!/^(?:[0-9a-f]{2}){0,8}$/i.test(value)) {
    throw new UsageError(`bad --reality-short-id "${value}": must be an even number of hex digits, at most 16`);
  }
  return value.toLowerCase();
}

function settingFlags(parsed: Parsed): GivenSettings {
  const value = (name: keyof typeof FLAGS) => flag(parsed, name);
  const settings: GivenSettings = {};
  const network = value('network');
  if (network !== undefined) settings.network = oneOf(network, '--network', NETWORKS);
  const path = value('path');
  if (path !== undefined) settings.path = urlPath(path);
  const hostHeader = value('host-header');
  if (hostHeader !== undefined) settings.hostHeader = hostname(hostHeader, '--host-header');
  const serviceName = value('service-name');
  if (serviceName !== undefined) {
    if (!/^[\w./-]{1,255}$/.test(serviceName)) {
      throw new UsageError(`bad --service-name "${serviceName}": letters, digits, _ . / - only`);
    }
    settings.serviceName = serviceName;
  }
  const tls = value('tls');
  if (tls !== undefined) settings.tls = oneOf(tls, '--tls', TLS_MODES);
  const sni = value('sni');
  if (sni !== undefined) settings.sni = hostname(sni, '--sni');
  const fingerprint = value('fingerprint');
  if (fingerprint !== undefined) settings.fingerprint = oneOf(fingerprint, '--fingerprint', FINGERPRINTS);
  const flow = value('flow');
  if (flow !== undefined) settings.flow = oneOf(flow, '--flow', FLOWS);
  const publicKey = value('reality-public-key');
  if (publicKey !== undefined) settings.realityPublicKey = realityKey(publicKey, '--reality-public-key');
  const privateKey = value('reality-private-key');
  if (privateKey !== undefined) settings.realityPrivateKey = realityKey(privateKey, '--reality-private-key');
  const id = value('reality-short-id');
  if (id !== undefined) settings.realityShortId = shortId(id);
  const cipher = value('cipher');
  if (cipher !== undefined) settings.cipher = oneOf(cipher, '--cipher', SS_CIPHERS);
  const obfs = value('obfs-password');
  if (obfs !== undefined) settings.obfsPassword = text(obfs, '--obfs-password', 128);
  const congestion = value('congestion-control');
  if (congestion !== undefined)
    settings.congestionControl = oneOf(congestion, '--congestion-control', CONGESTION_CONTROLS);
  return settings;
}

function nodeFlags(parsed: Parsed): NodeFlags {
  const name = (key: string) => {
    const value = flag(parsed, key);
    return value === undefined ? undefined : text(value, `--${key}`, NAME_MAX);
  };
  const type = flag(parsed, 'type');
  const host = flag(parsed, 'host');
  const port = flag(parsed, 'port');
  const rate = flag(parsed, 'mag');
  const label = flag(parsed, 'label');
  const sort = flag(parsed, 'sort');
  if (given(parsed, 'hidden') && given(parsed, 'visible')) throw new UsageError('give --hidden or --visible, not both');
  const visible = given(parsed, 'hidden') ? false : given(parsed, 'visible') ? true : undefined;
  return {
    names: texts(name('name'), name('name-pt'), name('name-zh')),
    ...(type !== undefined ? { protocol: oneOf(type, '--type', PROTOCOLS) } : {}),
    ...(host !== undefined ? { host: hostOrIp(host) } : {}),
    ...(port !== undefined ? { port: integer(port, '--port', 1, 65_535) } : {}),
    ...(rate !== undefined ? { rate: mag(rate) } : {}),
    ...(label !== undefined ? { labels: labels(label) } : {}),
    ...(visible !== undefined ? { visible } : {}),
    ...(sort !== undefined ? { sort: integer(sort, '--sort', -1_000_000, 1_000_000) } : {}),
    settings: settingFlags(parsed),
  };
}

const flagOf: SettingName = (key) => `--${SETTING_FLAGS[key]}`;

/** A misfit of the nodes' rules as a usage error naming the flag (exit 2, nothing written). */
function usageOnMisfit<T>(work: () => T): T;
function usageOnMisfit<T>(work: () => Promise<T>): Promise<T>;
function usageOnMisfit<T>(work: () => T | Promise<T>): T | Promise<T> {
  const asUsage = (error: unknown): never => {
    throw error instanceof NodeSettingsError ? new UsageError(error.message) : error;
  };
  try {
    const result = work();
    return result instanceof Promise ? result.catch(asUsage) : result;
  } catch (error) {
    return asUsage(error);
  }
}

// Views.

/** The node's settings that are set, without the secrets only the node needs (REALITY's private key, SS 2022's key). */
function shownSettings(settings: NodeSettings) {
  const { realityPrivateKey: _private, serverKey: _server, ...rest } = settings;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
}

const namesOf = (node: NodeView) => JSON.parse(node.names) as Localized;
const labelsOf = (node: NodeView) => (node.labels ? node.labels.split(',') : []);
const address = (node: Pick<NodeView, 'host' | 'port'>) =>
  `${node.host.includes(':') ? `[${node.host}]` : node.host}:${node.port}`;

function nodeJson(node: NodeView) {
  return {
    id: node.id,
    names: namesOf(node),
    type: node.protocol,
    host: node.host,
    port: node.port,
    mag: node.rate,
    labels: labelsOf(node),
    visible: node.visible === 1,
    sort: node.sort,
    settings: shownSettings(node.settings),
  };
}

const SETTING_LABELS: Record<string, string> = {
  network: 'network',
  path: 'path',
  hostHeader: 'host header',
  serviceName: 'service name',
  tls: 'tls',
  sni: 'sni',
  fingerprint: 'fingerprint',
  flow: 'flow',
  realityPublicKey: 'reality public key',
  realityShortId: 'reality short id',
  cipher: 'cipher',
  obfsPassword: 'obfs password',
  congestionControl: 'congestion control',
  allowInsecure: 'allow insecure',
};

function nodeText(node: NodeView): string {
  const names = namesOf(node);
  const settings = shownSettings(node.settings);
  if (!TRANSPORT_PROTOCOLS.includes(node.protocol)) {
    delete settings.network;
    delete settings.tls;
  }
  return keyValues([
    ['id', node.id],
    ...REQUEST_LANGUAGES.map((lang): [string, string] => [`name (${lang})`, names[lang] ?? '']),
    ['type', node.protocol],
    ['address', address(node)],
    ['mag', node.rate],
    ['labels', labelsOf(node).join(', ') || '-'],
    ['visible', yesNo(node.visible === 1)],
    ['sort', node.sort],
    ...Object.entries(settings).map(([key, value]): [string, string] => [SETTING_LABELS[key] ?? key, String(value)]),
  ]);
}

async function found(services: AdminServices, nodeId: number): Promise<NodeView> {
  const node = await services.nodes.find(nodeId);
  if (!node) throw new CommandError(`node ${nodeId} not found`);
  return node;
}

/** The node with its new token: shown this once, with the configuration each agent needs. */
function withToken(services: AdminServices, node: NodeView, token: string, headline: string) {
  const { publicUrl } = services.settings;
  return {
    json: {
      ...nodeJson(node),
      token,
      ...services.nodes.agentEntries(node, token, publicUrl),
    },
    text: [
      headline,
      nodeText(node),
      `token:  ${token}`,
      `        (shown only now; it is stored hashed. "admin node token ${node.id}" makes a new one.)`,
      '',
      agentsText(node, token, publicUrl),
    ].join('\n'),
  };
}

const nodeId = (parsed: Parsed) => id(parsed.positionals[0] ?? '', 'node id');

export const nodeCommands: Noun = {
  summary: 'proxy nodes: what customers’ feeds list, and what each node’s agent (V2bX, XrayR) serves',
  verbs: {
    add: command({
      summary: 'adds a node and prints its token and the configuration to paste into V2bX or XrayR',
      flags: {
        ...FLAGS,
        name: { ...FLAGS.name, required: true },
        type: { ...FLAGS.type, required: true },
        host: { ...FLAGS.host, required: true },
        port: { ...FLAGS.port, required: true },
      },
      example:
        'admin node add --name "Tokyo 1" --type vless --host jp1.example.com --port 443 --tls reality --sni www.microsoft.com --reality-public-key PUB --reality-private-key PRIV --flow xtls-rprx-vision --label "JP,fast"',
      parse(parsed) {
        const fields = nodeFlags(parsed);
        const protocol = fields.protocol ?? 'vless';
        // Refused (exit 2) before the database is opened; the service checks them again by the same rule.
        usageOnMisfit(() => settingsFor(protocol, { network: 'tcp', tls: 'none' }, fields.settings, flagOf));
        const input: NodeInput = {
          names: merged(fields.names, localized('')),
          labels: fields.labels ?? [],
          rate: fields.rate ?? 1,
          protocol,
          host: fields.host ?? '',
          port: fields.port ?? 0,
          settings: fields.settings,
          ...(fields.visible !== undefined ? { visible: fields.visible } : {}),
          ...(fields.sort !== undefined ? { sort: fields.sort } : {}),
        };
        return input;
      },
      async run(input, services) {
        const { id, token } = await usageOnMisfit(() => services.nodes.add(input, undefined, flagOf));
        return withToken(services, await found(services, id), token, `node ${id} added`);
      },
    }),
    list: command({
      summary: 'every node, hidden ones too; online is known only with REDIS_URL (the servers’ heartbeats)',
      example: 'admin node list',
      parse: () => null,
      async run(_input, services) {
        const nodes = await services.nodes.all();
        // Heartbeats live in the servers' store: only a shared Redis tells this process about them.
        let online: Array<boolean | null> = nodes.map(() => null);
        if (services.settings.sharedStore) {
          online = await services.nodes.isOnline(nodes.map((node) => node.id)).catch(() => online);
        }
        const onlineText = (value: boolean | null) => (value === null ? 'unknown' : yesNo(value));
        return {
          json: nodes.map((node, i) => ({ ...nodeJson(node), online: online[i] ?? null })),
          text: table(
            ['ID', 'NAME', 'TYPE', 'ADDRESS', 'MAG', 'LABELS', 'VISIBLE', 'ONLINE'],
            nodes.map((node, i) => [
              String(node.id),
              namesOf(node).en ?? '',
              node.protocol,
              address(node),
              String(node.rate),
              labelsOf(node).join(',') || '-',
              yesNo(node.visible === 1),
              onlineText(online[i] ?? null),
            ]),
            'no nodes',
          ),
        };
      },
    }),
    update: command({
      summary: 'changes a node: the flags of add, all optional; a setting that no longer applies is dropped',
      args: ['ID'],
      flags: { ...FLAGS, visible: { value: '', switch: true, help: 'lists a hidden node again' } },
      example: 'admin node update 3 --mag 2 --label "JP,fast" --sni www.apple.com',
      parse(parsed) {
        const id = nodeId(parsed);
        const fields = nodeFlags(parsed);
        const { names, settings, ...rest } = fields;
        if (!hasTexts(names) && Object.keys(settings).length === 0 && Object.keys(rest).length === 0) {
          throw new UsageError('nothing to change: give at least one flag of "admin node add"');
        }
        return { id, fields };
      },
      async run({ id, fields }, services) {
        const node = await found(services, id);
        const { names, ...rest } = fields;
        // Checked against the node as it would be; refused (exit 2) before anything is written.
        const changed = await usageOnMisfit(() =>
          services.nodes.update(
            id,
            { ...rest, ...(hasTexts(names) ? { names: merged(names, namesOf(node)) } : {}) },
            undefined,
            flagOf,
          ),
        );
        if (!changed) throw new CommandError(`node ${id} not found`);
        const updated = await found(services, id);
        return { json: nodeJson(updated), text: `node ${id} updated\n${nodeText(updated)}` };
      },
    }),
    remove: command({
      summary: 'removes a node: it leaves customers’ feeds, and its agent is refused',
      args: ['ID'],
      example: 'admin node remove 3',
      parse: nodeId,
      async run(id, { nodes }) {
        if (!(await nodes.remove(id))) throw new CommandError(`node ${id} not found`);
        return { json: { id, removed: true }, text: `node ${id} removed` };
      },
    }),
    token: command({
      summary: 'gives a node a new token and prints it; the old one stops working',
      args: ['ID'],
      example: 'admin node token 3',
      parse: nodeId,
      async run(id, services) {
        const token = await services.nodes.rotateToken(id);
        if (!token) throw new CommandError(`node ${id} not found`);
        return withToken(
          services,
          await found(services, id),
          token,
          `node ${id} has a new token: the old one no longer works. Set ApiKey to it in the node's agent.`,
        );
      },
    }),
  },
};
