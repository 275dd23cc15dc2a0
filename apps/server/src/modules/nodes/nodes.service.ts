import { randomBytes } from 'node:crypto';
import type { Node, RequestLanguage } from '@mutenet/contract';
import type { Executor } from '../../db/transaction.js';
import { type Localized, pickLanguage } from '../../lib/localized.js';
import { type MaybePromise, thenMaybe } from '../../lib/maybe-promise.js';
import { equalInConstantTime, hashToken, matchesHash, newToken } from '../../lib/secrets.js';
import type { Store } from '../../plugins/app/store.js';
import { type NodeSettings, NodeSettingsSchema, ss2022KeyLength } from './node-settings.js';
import { type NewNode, type NodeRow, NodesRepository } from './nodes.repository.js';
import type { Protocol, ResolvedProxy } from './proxy.model.js';

/** A node is online when its agent called the node API within this window. */
export const NODE_ONLINE_WINDOW_MS = 5 * 60_000;
/**
 * How often an instance renews a node's heartbeat in the store: agents call several times a minute, and one write a
 * minute keeps a node well inside its online window without a store write on every call.
 */
const HEARTBEAT_RENEW_MS = 60_000;
/** How long this instance trusts its copy of the node table: operator changes reach every instance within it. */
const NODE_CACHE_MS = 5000;
/** Online IPs a node reported stay counted this long without a new report. */
const ONLINE_USERS_TTL_MS = 10 * 60_000;

const aliveKey = (id: number) => `node-alive:${id}`;
const onlineUsersKey = (id: number) => `node-online-users:${id}`;

/** The nodes service on a database, as the plugin and the admin command line build it. */
export function createNodesService(db: Executor, store: Store, now: () => number): NodesService {
  return new NodesService(new NodesRepository(db), store, now);
}

export type NodeInput = {
  names: Localized;
  labels: string[];
  rate: number;
  protocol: Protocol;
  host: string;
  port: number;
  settings: NodeSettings;
  visible?: boolean;
  sort?: number;
};

export type NodeView = Omit<NodeRow, 'settings' | 'token_hash' | 'protocol'> & {
  protocol: Protocol;
  settings: NodeSettings;
};

/** The status page's entries, each as it reads online and offline, and the nodes' heartbeat keys. */
type StatusList = {
  keys: string[];
  entries: Array<{ online: Node; offline: Node }>;
  /** The list last answered, with which nodes were online in it ('1' or '0' each, in order). */
  last?: { online: string; list: readonly Node[] };
};

/** What is worked out once per loaded node list and language, kept with the list (it goes when the list goes). */
class PerListAndLanguage<T> {
  #byList = new WeakMap<NodeView[], Map<RequestLanguage, T>>();

  get(nodes: NodeView[], language: RequestLanguage, build: () => T): T {
    let byLanguage = this.#byList.get(nodes);
    if (!byLanguage) {
      byLanguage = new Map();
      this.#byList.set(nodes, byLanguage);
    }
    let value = byLanguage.get(language);
    if (value === undefined) {
      value = build();
      byLanguage.set(language, value);
    }
    return value;
  }
}

/** A visible node and its name in the request's language, unique within the list. */
export type NamedNode = { node: NodeView; name: string };

export class NodesService {
  /** The rows last read, as read, and their views. */
  #loaded: { source: string; views: NodeView[] } | undefined;
  /** When the table was last read; undefined once an operator change here makes the next call read it again. */
  #readAt: number | undefined;
  /** The loaded nodes by id: an agent's every call looks its node up. */
  #byId = new Map<number, NodeView>();
  #tokenHashes = new Map<number, string>();
  /**
   * The token last matched to each node's hash, while the hash is the same: an agent calls several times a minute
   * with the same token, and hashing it each time was 8 % of a 304's CPU.
   */
  #matchedTokens = new Map<number, string>();
  /** When this instance last wrote each node's heartbeat to the store. */
  #heartbeats = new Map<number, number>();
  /** The visible nodes' names, per loaded list and language. */
  #namesByList = new PerListAndLanguage<NamedNode[]>();
  /** The status page's list, per loaded list and language. */
  #statusLists = new PerListAndLanguage<StatusList>();
  #loading: Promise<NodeView[]> | undefined;

  constructor(
    private readonly repository: NodesRepository,
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** Every node, from a copy at most a few seconds old; concurrent callers share one reload. */
  async all(): Promise<NodeView[]> {
    return this.#current();
  }

  /** The nodes: at once while the copy in memory is fresh, else when reloaded. */
  #current(): MaybePromise<NodeView[]> {
    return this.#fresh() ?? this.#reload();
  }

  /** The nodes, when the copy in memory is still fresh. */
  #fresh(): NodeView[] | undefined {
    const readAt = this.#readAt;
    return readAt !== undefined && this.now() - readAt <= NODE_CACHE_MS ? this.#loaded?.views : undefined;
  }

  #reload(): Promise<NodeView[]> {
    this.#loading ??= this.repository
      .list()
      .then((rows) => {
        // An unchanged table keeps its views, and so what is kept with them (names, feed templates, config answers).
        const source = JSON.stringify(rows);
        if (source !== this.#loaded?.source) {
          this.#loaded = { source, views: rows.map(toView) };
          this.#byId = new Map(this.#loaded.views.map((view) => [view.id, view]));
          this.#tokenHashes = new Map(rows.map((row) => [row.id, row.token_hash]));
          this.#matchedTokens = new Map();
        }
        this.#readAt = this.now();
        return this.#loaded.views;
      })
      .finally(() => {
        this.#loading = undefined;
      });
    return this.#loading;
  }

  /** The node whose id and own token these are (and whose type, when the agent names one), else undefined. */
  authenticate(nodeId: number, token: string, nodeType?: string): MaybePromise<NodeView | undefined> {
    // At once while the copy is fresh: every call of every node's agent comes here.
    if (this.#fresh()) return this.#authenticated(nodeId, token, nodeType);
    return this.#reload().then(() => this.#authenticated(nodeId, token, nodeType));
  }

  #authenticated(nodeId: number, token: string, nodeType: string | undefined): NodeView | undefined {
    const node = this.#byId.get(nodeId);
    const expected = this.#tokenHashes.get(nodeId);
    if (!node || !expected) return undefined;
    const matched = this.#matchedTokens.get(nodeId);
    if (!(matched !== undefined && equalInConstantTime(token, matched))) {
      if (!matchesHash(token, expected)) return undefined;
      this.#matchedTokens.set(nodeId, token);
    }
    if (nodeType && agentNodeType(nodeType) !== node.protocol) return undefined;
    return node;
  }

  /** Whether each node's agent called the node API within the online window, as the store's heartbeats say. */
  async isOnline(ids: number[]): Promise<boolean[]> {
    const alive = await this.store.getMany(ids.map(aliveKey));
    return alive.map((value) => value !== null);
  }

  /** Renews the node's heartbeat in the store; undefined, with nothing to wait for, when renewed within a minute. */
  heartbeat(nodeId: number): Promise<void> | undefined {
    const now = this.now();
    if (now - (this.#heartbeats.get(nodeId) ?? -Infinity) < HEARTBEAT_RENEW_MS) return undefined;
    return this.store.set(aliveKey(nodeId), String(now), NODE_ONLINE_WINDOW_MS).then(() => {
      this.#heartbeats.set(nodeId, now);
    });
  }

  /** How many visible nodes are online, as the store's heartbeats say. */
  async onlineCount(): Promise<number> {
    const nodes = (await this.all()).filter((node) => node.visible);
    return (await this.isOnline(nodes.map((node) => node.id))).filter(Boolean).length;
  }

  /**
   * The node list of the customer's status page: the same array as last time while the same nodes are online, so
   * that its answer can be kept with it (`sendKeptAnswer`).
   */
  async customerList(language: RequestLanguage): Promise<readonly Node[]> {
    const statusList = this.#statusList(await this.all(), language);
    const alive = await this.store.getMany(statusList.keys);
    const online = alive.map((value) => (value ? '1' : '0')).join('');
    if (statusList.last?.online !== online) {
      const list = statusList.entries.map((entry, index) => (alive[index] ? entry.online : entry.offline));
      statusList.last = { online, list };
    }
    return statusList.last.list;
  }

  /** The status page's list and the nodes' heartbeat keys: once per loaded list and language. */
  #statusList(nodes: NodeView[], language: RequestLanguage): StatusList {
    return this.#statusLists.get(nodes, language, () => {
      const visible = nodes.filter((node) => node.visible);
      return {
        keys: visible.map((node) => aliveKey(node.id)),
        entries: visible.map((node) => {
          const entry = { name: pickLanguage(node.names, language), label: node.labels, mag: node.rate };
          return { online: { ...entry, status: 'online' }, offline: { ...entry, status: 'offline' } };
        }),
      };
    });
  }

  /**
   * The visible nodes named uniquely in the request's language, for `resolveProxy` to put a customer's credential in:
   * the same array until the node list reloads, so that what is worked out from it (the feed's templates) can be kept
   * with it.
   */
  named(language: RequestLanguage): MaybePromise<readonly NamedNode[]> {
    return thenMaybe(this.#current(), (nodes) => this.#named(nodes, language));
  }

  /**
   * The visible nodes with their names in a language, numbered where two share one: worked out once per loaded node
   * list and language, not on every feed request.
   */
  #named(nodes: NodeView[], language: RequestLanguage): NamedNode[] {
    return this.#namesByList.get(nodes, language, () => {
      const seen = new Map<string, number>();
      return nodes
        .filter((node) => node.visible)
        .map((node) => {
          const base = pickLanguage(node.names, language) || `${node.host}:${node.port}`;
          const count = (seen.get(base) ?? 0) + 1;
          seen.set(base, count);
          return { node, name: count === 1 ? base : `${base} (${count})` };
        });
    });
  }

  /** The online IPs a node reports per user id; counted across nodes by `onlineCounts`. */
  async reportOnline(nodeId: number, online: Record<string, string[]>): Promise<void> {
    await this.store.set(onlineUsersKey(nodeId), JSON.stringify(online), ONLINE_USERS_TTL_MS);
  }

  /** Distinct online IPs per user id over every node, for the agents' device limits. */
  async onlineCounts(): Promise<Record<string, number>> {
    const nodes = await this.all();
    const reports = await this.store.getMany(nodes.map((node) => onlineUsersKey(node.id)));
    const ips = new Map<string, Set<string>>();
    for (const report of reports) {
      if (!report) continue;
      for (const [uid, list] of Object.entries(JSON.parse(report) as Record<string, string[]>)) {
        const set = ips.get(uid) ?? new Set<string>();
        for (const ip of list) set.add(ip);
        ips.set(uid, set);
      }
    }
    return Object.fromEntries([...ips].map(([uid, set]) => [uid, set.size]));
  }

  // Operator side (the admin command line).

  /** Adds a node and returns its id and its token, which is shown this once and stored hashed. */
  async add(input: NodeInput): Promise<{ id: number; token: string }> {
    const token = newToken();
    const settings = withServerKey(input.settings);
    const id = await this.repository.insert({ ...toRow(input, settings), token_hash: hashToken(token) }, this.now());
    this.#readAt = undefined;
    return { id, token };
  }

  async find(id: number): Promise<NodeView | undefined> {
    const row = await this.repository.find(id);
    return row && toView(row);
  }

  async update(id: number, input: Partial<NodeInput>): Promise<boolean> {
    const current = await this.repository.find(id);
    if (!current) return false;
    const merged = { ...toInput(toView(current)), ...input };
    const settings = withServerKey({ ...toView(current).settings, ...input.settings });
    const changed = await this.repository.update(id, toRow(merged, settings), this.now());
    this.#readAt = undefined;
    return changed;
  }

  async remove(id: number): Promise<boolean> {
    this.#readAt = undefined;
    return this.repository.remove(id);
  }

  /** A new token for the node; the old one stops working. */
  async rotateToken(id: number): Promise<string | undefined> {
    const token = newToken();
    const changed = await this.repository.update(id, { token_hash: hashToken(token) }, this.now());
    this.#readAt = undefined;
    return changed ? token : undefined;
  }
}

/** The protocol an agent's `node_type` names: XrayR (as V2Board) calls VMess `V2ray`. */
function agentNodeType(nodeType: string): string {
  const type = nodeType.toLowerCase();
  return type === 'v2ray' ? 'vmess' : type;
}

function toView(row: NodeRow): NodeView {
  const { token_hash: _hash, settings, protocol, ...rest } = row;
  return { ...rest, protocol: protocol as Protocol, settings: NodeSettingsSchema.parse(JSON.parse(settings)) };
}

function toInput(view: NodeView): NodeInput {
  return {
    names: JSON.parse(view.names) as Localized,
    labels: view.labels ? view.labels.split(',') : [],
    rate: view.rate,
    protocol: view.protocol,
    host: view.host,
    port: view.port,
    settings: view.settings,
    visible: view.visible === 1,
    sort: view.sort,
  };
}

function toRow(input: NodeInput, settings: NodeSettings): Omit<NewNode, 'token_hash'> {
  return {
    names: JSON.stringify(input.names),
    labels: input.labels
      .map((label) => label.trim())
      .filter(Boolean)
      .join(','),
    rate: input.rate,
    protocol: input.protocol,
    host: input.host,
    port: input.port,
    settings: JSON.stringify(settings),
    visible: input.visible === false ? 0 : 1,
    sort: input.sort ?? 0,
  };
}

/** A Shadowsocks 2022 node needs a server key of its cipher's length; drawn once, kept across updates. */
function withServerKey(settings: NodeSettings): NodeSettings {
  const length = ss2022KeyLength(settings.cipher);
  if (!length) return { ...settings, serverKey: undefined };
  if (settings.serverKey && Buffer.from(settings.serverKey, 'base64').length === length) return settings;
  return { ...settings, serverKey: randomBytes(length).toString('base64') };
}

/** The customer's password on a node: the UUID, or for Shadowsocks 2022 `serverKey:userKey`. */
export function passwordOn(node: Pick<NodeView, 'settings'>, uuid: string): string {
  const length = ss2022KeyLength(node.settings.cipher);
  if (!length || !node.settings.serverKey) return uuid;
  return `${node.settings.serverKey}:${userKey(uuid, length)}`;
}

/** The last user key worked out: a feed asks for its customer's once per Shadowsocks 2022 node. */
let lastUserKey = { uuid: '', length: 0, key: '' };

/** Shadowsocks 2022 user key as V2bX derives it: the first key-length characters of the UUID, base64. */
export function userKey(uuid: string, length: number): string {
  if (uuid !== lastUserKey.uuid || length !== lastUserKey.length) {
    lastUserKey = { uuid, length, key: Buffer.from(uuid.slice(0, length)).toString('base64') };
  }
  return lastUserKey.key;
}

/** A node with the customer's credential in it, as the feed renders it. */
export function resolveProxy({ node, name }: NamedNode, uuid: string): ResolvedProxy {
  const { settings } = node;
  return {
    id: node.id,
    name,
    protocol: node.protocol,
    host: node.host,
    port: node.port,
    uuid,
    password: passwordOn(node, uuid),
    ...(settings.flow ? { flow: settings.flow } : {}),
    ...(settings.cipher ? { cipher: settings.cipher } : {}),
    ...(settings.obfsPassword ? { obfsPassword: settings.obfsPassword } : {}),
    ...(settings.congestionControl ? { congestionControl: settings.congestionControl } : {}),
    transport: {
      network: settings.network,
      ...(settings.path ? { path: settings.path } : {}),
      ...(settings.hostHeader ? { host: settings.hostHeader } : {}),
      ...(settings.serviceName ? { serviceName: settings.serviceName } : {}),
    },
    tls: {
      mode: defaultTls(node.protocol, settings.tls),
      ...(settings.sni ? { sni: settings.sni } : {}),
      ...(settings.fingerprint ? { fingerprint: settings.fingerprint } : {}),
      ...(settings.realityPublicKey ? { realityPublicKey: settings.realityPublicKey } : {}),
      ...(settings.realityShortId !== undefined ? { realityShortId: settings.realityShortId } : {}),
      ...(settings.allowInsecure ? { allowInsecure: true } : {}),
    },
  };
}

/** Trojan, Hysteria 2 and TUIC always run over TLS. */
function defaultTls(protocol: Protocol, mode: NodeSettings['tls']): NodeSettings['tls'] {
  return (protocol === 'trojan' || protocol === 'hysteria2' || protocol === 'tuic') && mode === 'none' ? 'tls' : mode;
}
