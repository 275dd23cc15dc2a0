import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';

/**
 * A value asked of every worker of a `WEB_CONCURRENCY` cluster at once, through the primary: a worker that answers
 * `/metrics` shows the whole cluster's counts, not its own. The primary only relays (`relayGathers`); each worker
 * says what it answers for a topic (`answerGathers`).
 */

/** How long the primary waits for the workers: one being restarted is left out rather than waited for. */
const WORKERS_WITHIN_MS = 1000;
/** How long a worker waits for the primary's answer before it answers with its own value alone. */
const PRIMARY_WITHIN_MS = 2000;

type Ask = { mutenetGather: 'ask'; id: string; topic: string };
type Tell = { mutenetGather: 'tell'; id: string; value: unknown };
type Told = { mutenetGather: 'told'; id: string; values: unknown[] };
type Message = Ask | Tell | Told;

const isMessage = (message: unknown): message is Message =>
  typeof message === 'object' && message !== null && 'mutenetGather' in message;

const providers = new Map<string, () => unknown>();
const waiting = new Map<string, (values: unknown[]) => void>();

/** In a worker: what it answers when the cluster gathers `topic`. */
export function answerGathers(topic: string, provide: () => unknown): void {
  if (!cluster.isWorker) return;
  if (providers.size === 0) {
    process.on('message', (message: unknown) => {
      if (!isMessage(message)) return;
      if (message.mutenetGather === 'ask') {
        const provide = providers.get(message.topic);
        // A worker being stopped may have lost its channel: the primary then leaves it out.
        if (process.connected) {
          process.send?.({ mutenetGather: 'tell', id: message.id, value: provide ? provide() : null } satisfies Tell);
        }
      } else if (message.mutenetGather === 'told') {
        waiting.get(message.id)?.(message.values);
      }
    });
  }
  providers.set(topic, provide);
}

/**
 * Every live worker's value for `topic` (this one's included), or only this process's own when it is not a worker of
 * a cluster or the primary does not answer in time.
 */
export function gatherFromWorkers<T>(topic: string, own: () => T): Promise<T[]> {
  if (!cluster.isWorker || !providers.has(topic) || !process.connected) return Promise.resolve([own()]);
  const id = randomUUID();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve([own()]);
    }, PRIMARY_WITHIN_MS);
    waiting.set(id, (values) => {
      clearTimeout(timer);
      waiting.delete(id);
      resolve(values.filter((value) => value !== null) as T[]);
    });
    process.send?.({ mutenetGather: 'ask', id, topic } satisfies Ask);
  });
}

/** In the primary: answers a worker's gathering with every live worker's value, given within a second. */
export function relayGathers(workers: () => Worker[]): void {
  const gatherings = new Map<string, { asker: Worker; pending: number; values: unknown[]; timer: NodeJS.Timeout }>();
  const answer = (id: string) => {
    const gathering = gatherings.get(id);
    if (!gathering) return;
    gatherings.delete(id);
    clearTimeout(gathering.timer);
    if (gathering.asker.isConnected()) {
      gathering.asker.send({ mutenetGather: 'told', id, values: gathering.values } satisfies Told);
    }
  };
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.mutenetGather === 'ask') {
      const asked = workers().filter((each) => each.isConnected());
      const timer = setTimeout(() => answer(message.id), WORKERS_WITHIN_MS);
      gatherings.set(message.id, { asker: worker, pending: asked.length, values: [], timer });
      for (const each of asked) each.send(message);
      if (asked.length === 0) answer(message.id);
    } else if (message.mutenetGather === 'tell') {
      const gathering = gatherings.get(message.id);
      if (!gathering) return;
      gathering.values.push(message.value);
      if (--gathering.pending === 0) answer(message.id);
    }
  });
}
