import { hash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CommitOutcomeUnknownError } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { nameAsRead, queryNamesOf } from '../../lib/log-url.js';
import { startOfUtcDays, UTC_DAY_MS } from '../../lib/utc-days.js';
import type { Store } from '../../plugins/app/store.js';
import type { NodesService, NodeView } from '../nodes/nodes.service.js';
import type { SubscriptionService } from '../subscription/subscription.service.js';
import type { NodeApiRepository } from './node-api.repository.js';
import { MAX_USERS_PER_REPORT, type PushedTraffic, readNodeQuery } from './node-api.schema.js';
import { uniProxyConfigAnswer } from './uni-proxy-config.js';
import type { UserList, UserListCache } from './user-list.js';

/** How long a push's record is kept: far longer than an agent waits before it sends a push again. */
const PUSH_RECORDS_KEPT_MS = 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

/** What a node's call carries that says which node it is: its URL as sent, its parsed query and `X-API-Key`. */
export type NodeCall = { url: string; query: unknown; apiKey: unknown };

/** The push of a node whose answer said nothing of its outcome: its record's id, kept until its next push. */
const unsettledKey = (nodeId: number) => `traffic-push-unsettled:${nodeId}`;

export type NodeApiDeps = {
  nodes: NodesService;
  subscriptions: SubscriptionService;
  repository: NodeApiRepository;
  store: Store;
  users: UserListCache;
  now: () => number;
};

/** The rules of the agents' API: who is calling, what it pulls, and how its reports are counted. */
export class NodeApiService {
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: NodeApiDeps) {}

  /**
   * The node whose own id and token the call carries (a shared token is not accepted), its heartbeat renewed; else
   * FORBIDDEN. The heartbeat only feeds the status pages: a store that is away must not refuse the agent's call, or
   * its traffic report would be lost.
   */
  async authenticate(call: NodeCall, log: Pick<FastifyBaseLogger, 'warn'>): Promise<NodeView> {
    const node = await this.#callingNode(call);
    if (!node) throw new AppError('FORBIDDEN');
    await this.deps.nodes
      .heartbeat(node.id)
      .catch((error: Error) => log.warn({ err: { message: error.message } }, 'node heartbeat not recorded'));
    return node;
  }

  async #callingNode({ url, query, apiKey }: NodeCall): Promise<NodeView | undefined> {
    // Agents send the token as `token=` or `X-API-Key`. Under any other name that reads as it (`%74oken=`,
    // `token[]=`, `;token=`) it is refused, whatever a lenient query parser would have made of it.
    if (queryNamesOf(url).some((name) => name !== 'token' && nameAsRead(name).includes('token'))) return undefined;
    const nodeQuery = readNodeQuery(query);
    const token = nodeQuery?.token ?? (typeof apiKey === 'string' ? apiKey : undefined);
    if (!nodeQuery || !token) return undefined;
    return this.deps.nodes.authenticate(nodeQuery.nodeId, token, nodeQuery.nodeType);
  }

  /** The node's configuration, as the bytes sent, and their ETag. */
  config(node: NodeView): { body: Buffer; etag: string } {
    return uniProxyConfigAnswer(node);
  }

  /** The users every node serves, kept per process until they change (see `UserListCache`). */
  users(): Promise<UserList> {
    return this.deps.users.current();
  }

  /** Who is online on the node, for the device limits of every node. */
  async reportAlive(node: NodeView, online: Record<string, string[]>): Promise<void> {
    if (Object.keys(online).length > MAX_USERS_PER_REPORT) throw new AppError('PAYLOAD_TOO_LARGE');
    await this.deps.nodes.reportOnline(node.id, online);
  }

  onlineCounts(): Promise<Record<string, number>> {
    return this.deps.nodes.onlineCounts();
  }

  /**
   * Counts the node's pushed traffic times its rate, once. The agent keeps the traffic of a push not answered 200 and
   * sends it again, so a push that was counted must be answered 200 even when the answer to its COMMIT was lost: it
   * is recorded in the same transaction, and then looked for on another connection.
   *
   * A push is never told apart from another by its digest alone: two identical pushes a minute apart (a user's idle
   * keep-alives) are both real traffic. Only the resend of a push whose outcome its answer left unknown (a 503) is:
   * that push's record id is kept in the store until the node's next push, which is not counted again when it is the
   * same traffic and the record shows that the first one landed after all.
   */
  async pushTraffic(node: NodeView, pushed: PushedTraffic[]): Promise<void> {
    if (pushed.length > MAX_USERS_PER_REPORT) throw new AppError('PAYLOAD_TOO_LARGE');
    if (pushed.length === 0) return;
    const { repository, store, subscriptions } = this.deps;
    const digest = digestOf(pushed);
    if (await this.#landedBefore(node.id, digest)) return;
    const now = this.deps.now();
    const push = { id: randomBytes(16).toString('base64url'), node_id: node.id, digest, pushed_at: now };
    try {
      await subscriptions.addTraffic(scaled(pushed, node.rate), async (tx) => {
        await repository.recordPush(tx, push);
        await repository.addNodeTraffic(tx, { day: startOfUtcDays(now, 1), node_id: node.id, ...carried(pushed) });
      });
    } catch (error) {
      if (!(error instanceof CommitOutcomeUnknownError)) throw error;
      if ((await repository.pushDigest(push.id).catch(() => undefined)) === digest) {
        // Counted: who used up their allowance is not known here, so every node's list is built again.
        await subscriptions.touchUsers().catch(() => undefined);
        return;
      }
      await store.set(unsettledKey(node.id), push.id, PUSH_RECORDS_KEPT_MS).catch(() => undefined);
      throw error;
    }
    await this.#prune(now);
  }

  /** Whether this push is the resend of the node's last push, left unsettled, that was counted after all. */
  async #landedBefore(nodeId: number, digest: string): Promise<boolean> {
    const { repository, store } = this.deps;
    const unsettled = await store.get(unsettledKey(nodeId)).catch(() => null);
    if (!unsettled) return false;
    const landed = await repository.pushDigest(unsettled);
    await store.delete(unsettledKey(nodeId)).catch(() => undefined);
    return landed === digest;
  }

  /** Forgets the pushes past their day: one indexed delete, at most once an hour per instance. */
  async #prune(now: number): Promise<void> {
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    await this.deps.repository.prunePushes(now - PUSH_RECORDS_KEPT_MS).catch(() => undefined);
  }
  // The console's overview (read only).

  /** The bytes all nodes carried on each of the last `days` UTC days, oldest first, days without any at 0. */
  async trafficByDay(days: number): Promise<Array<{ day: number; upload: number; download: number }>> {
    const since = startOfUtcDays(this.deps.now(), days);
    const rows = new Map((await this.deps.repository.trafficByDay(since)).map((row) => [row.day, row]));
    return Array.from({ length: days }, (_, index) => {
      const day = since + index * UTC_DAY_MS;
      return rows.get(day) ?? { day, upload: 0, download: 0 };
    });
  }

  /** The bytes each node carried in the last `days` UTC days, the busiest first; nodes that carried none are left out. */
  trafficByNode(days: number): Promise<Array<{ nodeId: number; upload: number; download: number }>> {
    return this.deps.repository.trafficByNode(startOfUtcDays(this.deps.now(), days));
  }
}

/** The bytes the node carried in a push (before its rate), held at 2^53 as the counters are. */
function carried(pushed: PushedTraffic[]): { upload: number; download: number } {
  let upload = 0;
  let download = 0;
  for (const entry of pushed) {
    upload += entry.upload;
    download += entry.download;
  }
  return { upload: Math.min(upload, Number.MAX_SAFE_INTEGER), download: Math.min(download, Number.MAX_SAFE_INTEGER) };
}

/** The pushed entries' SHA-256, however their JSON was spaced (JSON.parse hands the user ids in ascending order). */
function digestOf(pushed: PushedTraffic[]): string {
  return hash('sha256', pushed.map((entry) => `${entry.userId}:${entry.upload}:${entry.download}`).join('\n'));
}

/**
 * The entries times the node's rate. Past 2^53 bytes (8 PiB, beyond any allowance) a count is no longer exact, and
 * the counters take whole numbers: it is held there.
 */
function scaled(pushed: PushedTraffic[], rate: number): PushedTraffic[] {
  const scale = (bytes: number) => Math.min(Math.round(bytes * rate), Number.MAX_SAFE_INTEGER);
  return pushed.map((entry) => ({ ...entry, upload: scale(entry.upload), download: scale(entry.download) }));
}
