import { randomBytes } from 'node:crypto';
import { type GivenSettings, type Node, type RequestLanguage, type SettingName, settingsFor } from '@mutenet/contract';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { type Localized, pickLanguage } from '../../lib/localized.js';
import { hashToken, matchesHash, newToken } from '../../lib/secrets.js';
import type { Store } from '../../plugins/app/store.js';
import type { AuditHook } from '../audit/audit.service.js';
import { v2bxNode, xrayrNode } from './node-agents.js';
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
  return new NodesService(db, store, now);
}

/** A node as the operator gives it: the settings chosen, checked against its protocol by `settingsFor`. */
export type NodeInput = {
  names: Localized;
  labels: string[];
  rate: number;
  protocol: Protocol;
  host: string;
  port: number;
  settings: GivenSettings;
  visible?: boolean | undefined;
  sort?: number | undefined;
};

/** How a refused setting is named when the caller does not say: by its key, as the console's form fields are. */
const BY_KEY: SettingName = (key) => key;

/** The configuration entries each agent (V2bX, XrayR) needs to serve the node with its token. */
export type AgentEntries = {
  v2bx: ReturnType<typeof v2bxNode>;
  xrayr: NonNullable<ReturnType<typeof xrayrNode>> | null;
};

/** What the audit log keeps of a node: never its token, nor the keys only the node needs. */
function audited(node: NodeInput): Record<string, unknown> {
  const { realityPrivateKey, serverKey: _drawn, ...settings } = node.settings as NodeSettings;
  return {
    ...node,
    settings: { ...settings, ...(realityPrivateKey !== undefined ? { realityPrivateKey: '(set)' } : {}) },
  };
}

export type NodeView = Omit<NodeRow, 'settings' | 'token_hash' | 'protocol'> & {
  protocol: Protocol;
  settings: NodeSettings;
};

/** A node of the table as this instance keeps it, with the hash of its token. */
type KnownNode = { node: NodeView; tokenHash: string };

/** A visible node and its name in the request's language, unique within the list. */
export type NamedNode = { node: NodeView; name: string };

export class NodesService {
  /** The node table as last read, and when; undefined once a change here makes the next call read it again. */
  #loaded: { views: NodeView[]; byId: Map<number, KnownNode>; readAt: number } | undefined;
  /** When this instance last wrote each node's heartbeat to the store. */
  #heartbeats = new Map<number, number>();
  #loading: Promise<NodeView[]> | undefined;

  private readonly repository: NodesRepository;

  constructor(
    private readonly db: Executor,
    private readonly store: Store,
    private readonly now: () => number,
  ) {
    this.repository = new NodesRepository(db);
  }

  /** Every node, from a copy at most a few seconds old; concurrent callers share one reload. */
  async all(): Promise<NodeView[]> {
    const loaded = this.#loaded;
    if (loaded && this.now() - loaded.readAt <= NODE_CACHE_MS) return loaded.views;
    this.#loading ??= this.repository
      .list()
      .then((rows) => {
        const known = rows.map(toKnown);
        const views = known.map(({ node }) => node);
        this.#loaded = { views, byId: new Map(known.map((entry) => [entry.node.id, entry])), readAt: this.now() };
        return views;
      })
      .finally(() => {
        this.#loading = undefined;
      });
    return this.#loading;
  }

  /** The node whose id and own token these are (and whose type, when the agent names one), else undefined. */
  async authenticate(nodeId: number, token: string, nodeType?: string): Promise<NodeView | undefined> {
    await this.all();
    let known = this.#loaded?.byId.get(nodeId);
    if (!known || !matchesHash(token, known.tokenHash)) {
      // The copy may be older than the node or its token: the command line or another instance adds a node or
      // rotates a token in the table alone, and the agent configured with it calls at once. The row decides (a call
      // refused costs one read by the table's key).
      const row = await this.repository.find(nodeId);
      if (!row || !matchesHash(token, row.token_hash)) return undefined;
      known = toKnown(row);
      this.#loaded = undefined;
    }
    if (nodeType && agentNodeType(nodeType) !== known.node.protocol) return undefined;
    return known.node;
  }

  /** Whether each node's agent called the node API within the online window, as the store's heartbeats say. */
  async isOnline(ids: number[]): Promise<boolean[]> {
    const alive = await this.store.getMany(ids.map(aliveKey));
    return alive.map((value) => value !== null);
  }

  /** Renews the node's heartbeat in the store, unless this instance renewed it within the last minute. */
  async heartbeat(nodeId: number): Promise<void> {
    const now = this.now();
    if (now - (this.#heartbeats.get(nodeId) ?? -Infinity) < HEARTBEAT_RENEW_MS) return;
    await this.store.set(aliveKey(nodeId), String(now), NODE_ONLINE_WINDOW_MS);
    this.#heartbeats.set(nodeId, now);
  }

  /** How many visible nodes are online, as the store's heartbeats say. */
  async onlineCount(): Promise<number> {
    const nodes = (await this.all()).filter((node) => node.visible);
    return (await this.isOnline(nodes.map((node) => node.id))).filter(Boolean).length;
  }

  /** The node list of the customer's status page, each visible node online or offline by its heartbeat. */
  async customerList(language: RequestLanguage): Promise<Node[]> {
    const visible = (await this.all()).filter((node) => node.visible);
    const online = await this.isOnline(visible.map((node) => node.id));
    return visible.map((node, index) => ({
      name: pickLanguage(node.names, language),
      label: node.labels,
      mag: node.rate,
      status: online[index] ? 'online' : 'offline',
    }));
  }

  /**
   * The visible nodes with their names in the request's language, numbered where two share one, for `resolveProxy`
   * to put a customer's credential in.
   */
  async named(language: RequestLanguage): Promise<NamedNode[]> {
    const seen = new Map<string, number>();
    return (await this.all())
      .filter((node) => node.visible)
      .map((node) => {
        const base = pickLanguage(node.names, language) || `${node.host}:${node.port}`;
        const count = (seen.get(base) ?? 0) + 1;
        seen.set(base, count);
        return { node, name: count === 1 ? base : `${base} (${count})` };
      });
  }

  /** Every node, hidden ones too, with its live status: its heartbeat, and the users its agent last reported online. */
  async withStatus(): Promise<Array<{ node: NodeView; online: boolean; onlineUsers: number }>> {
    const nodes = await this.all();
    const ids = nodes.map((node) => node.id);
    const [online, reports] = await Promise.all([this.isOnline(ids), this.store.getMany(ids.map(onlineUsersKey))]);
    return nodes.map((node, index) => {
      const report = reports[index];
      return {
        node,
        online: online[index] ?? false,
        onlineUsers: report ? Object.keys(JSON.parse(report) as object).length : 0,
      };
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

  // Operator side: the admin command line and the console.

  /**
   * Adds a node and returns its id and its token, which is shown this once and stored hashed. Its settings are
   * checked against its protocol (a `NodeSettingsError` names the first that does not fit, as `name` calls it).
   */
  async add(input: NodeInput, audit?: AuditHook, name: SettingName = BY_KEY): Promise<{ id: number; token: string }> {
    const settings = withServerKey(settingsFor(input.protocol, { network: 'tcp', tls: 'none' }, input.settings, name));
    const token = newToken();
    const id = await inTransaction(this.db, async (tx) => {
      const row = { ...toRow(input, settings), token_hash: hashToken(token) };
      const id = await this.repository.with(tx).insert(row, this.now());
      const after = audited(toInput(toView({ ...row, id })));
      await audit?.(tx, { action: 'node.add', target: { type: 'node', id }, before: null, after });
      return id;
    });
    this.#loaded = undefined;
    return { id, token };
  }

  async find(id: number): Promise<NodeView | undefined> {
    const row = await this.repository.find(id);
    return row && toView(row);
  }

  /**
   * Changes a node: the fields given, and the settings given over the stored ones, checked against the protocol it
   * would have (a stored setting that no longer applies is dropped). False when there is no such node.
   */
  async update(
    id: number,
    changes: Partial<NodeInput>,
    audit?: AuditHook,
    name: SettingName = BY_KEY,
  ): Promise<boolean> {
    const changed = await inTransaction(this.db, async (tx) => {
      const repository = this.repository.with(tx);
      const row = await repository.find(id);
      if (!row) return false;
      const current = toInput(toView(row));
      const protocol = changes.protocol ?? current.protocol;
      const settings = withServerKey(settingsFor(protocol, toView(row).settings, changes.settings ?? {}, name));
      const next: NodeInput = { ...current, ...changes, protocol, settings };
      await repository.update(id, toRow(next, settings), this.now());
      const [before, after] = touched(audited(current), audited(next));
      await audit?.(tx, { action: 'node.update', target: { type: 'node', id }, before, after });
      return true;
    });
    this.#loaded = undefined;
    return changed;
  }

  /** Removes a node: it leaves the feeds and the status page, and its agent is refused. */
  async remove(id: number, audit?: AuditHook): Promise<boolean> {
    const removed = await inTransaction(this.db, async (tx) => {
      const repository = this.repository.with(tx);
      const row = await repository.find(id);
      if (!row || !(await repository.remove(id))) return false;
      const before = audited(toInput(toView(row)));
      await audit?.(tx, { action: 'node.remove', target: { type: 'node', id }, before, after: null });
      return true;
    });
    this.#loaded = undefined;
    return removed;
  }

  /** A new token for the node; the old one stops working. The log records that it was rotated, never the token. */
  async rotateToken(id: number, audit?: AuditHook): Promise<string | undefined> {
    const token = newToken();
    const changed = await inTransaction(this.db, async (tx) => {
      if (!(await this.repository.with(tx).update(id, { token_hash: hashToken(token) }, this.now()))) return false;
      await audit?.(tx, {
        action: 'node.rotateToken',
        target: { type: 'node', id },
        before: null,
        after: { tokenRotated: true },
      });
      return true;
    });
    this.#loaded = undefined;
    return changed ? token : undefined;
  }

  /** The entries to paste into each agent's configuration for the node and its token; agents reach `publicUrl`. */
  agentEntries(node: NodeView, token: string, publicUrl: string): AgentEntries {
    return { v2bx: v2bxNode(node, token, publicUrl), xrayr: xrayrNode(node, token, publicUrl) ?? null };
  }
  // The console's overview (read only).

  /** Every node (hidden ones too) online or offline by its heartbeat. */
  async onlineTally(): Promise<{ online: number; offline: number }> {
    const nodes = await this.all();
    const online = (await this.isOnline(nodes.map((node) => node.id))).filter(Boolean).length;
    return { online, offline: nodes.length - online };
  }
}

/** The values that differ between two versions of a record, each side's own. */
function touched(before: Record<string, unknown>, after: Record<string, unknown>): [object, object] {
  const keys = Object.keys({ ...before, ...after }).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  return [
    Object.fromEntries(keys.map((key) => [key, before[key] ?? null])),
    Object.fromEntries(keys.map((key) => [key, after[key] ?? null])),
  ];
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

function toKnown(row: NodeRow): KnownNode {
  return { node: toView(row), tokenHash: row.token_hash };
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

function toRow(input: Omit<NodeInput, 'settings'>, settings: NodeSettings): Omit<NewNode, 'token_hash'> {
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

/** Shadowsocks 2022 user key as V2bX derives it: the first key-length characters of the UUID, base64. */
export function userKey(uuid: string, length: number): string {
  return Buffer.from(uuid.slice(0, length)).toString('base64');
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
