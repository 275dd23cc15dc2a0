import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sameSecret } from '../../lib/secrets.js';
import { sendError } from './errors.js';

/** One sample of a gauge: its labels (named when the gauge is declared) and its value. */
export type Sample = { labels?: Record<string, string>; value: number };

/**
 * Prometheus metrics of the process. Infrastructure only: modules add their own counters to `registry` and declare
 * gauges read at scrape time (orders by status, nodes online).
 */
export interface Metrics {
  registry: Registry;
  /**
   * A gauge read at each scrape, the same from every worker of a cluster; a collector that throws is left out of that
   * scrape (and logged).
   */
  gauge(name: string, help: string, collect: () => Promise<Sample[] | number>, labelNames?: readonly string[]): void;
  /** The exposition in the Prometheus text format, of the whole cluster under `WEB_CONCURRENCY`. */
  render(): Promise<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Request latency buckets, in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A worker's question to the primary, and its answer: the exposition of every worker's metrics. */
const CLUSTER_METRICS = 'mutenet:cluster-metrics';
type ClusterMetricsMessage = { type: typeof CLUSTER_METRICS; id: string; text?: string };
const isClusterMetrics = (message: unknown): message is ClusterMetricsMessage =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === CLUSTER_METRICS;
/** Longer than prom-client's 5 s wait for the workers: a worker left without an answer shows its own counts. */
const PRIMARY_WITHIN_MS = 6000;

/**
 * In the primary of a `WEB_CONCURRENCY` cluster: answers a worker's `/metrics` with every worker's metrics, gathered
 * by prom-client's aggregator (counters and histograms added up, gauges taken from one worker).
 */
export function answerClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isClusterMetrics(message)) return;
    const answer = (text?: string) => {
      if (worker.isConnected())
        worker.send({ type: CLUSTER_METRICS, id: message.id, text } satisfies ClusterMetricsMessage);
    };
    aggregator.clusterMetrics().then(answer, () => answer());
  });
}

/** In a worker: the whole cluster's exposition through the primary, or this worker's own when it does not answer. */
function clusterMetrics(own: Registry): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve) => {
    const settle = (text?: string) => {
      clearTimeout(timer);
      process.off('message', listen);
      resolve(text ?? own.metrics());
    };
    const listen = (message: unknown) => {
      if (isClusterMetrics(message) && message.id === id) settle(message.text);
    };
    const timer = setTimeout(() => settle(), PRIMARY_WITHIN_MS);
    process.on('message', listen);
    process.send?.({ type: CLUSTER_METRICS, id } satisfies ClusterMetricsMessage);
  });
}

export type MetricsOptions = {
  /** When set, `GET /metrics` needs `Authorization: Bearer <token>`. */
  token?: string | undefined;
};

/**
 * Counts every request by route pattern (never the raw URL: subscription tokens live in paths), method and status,
 * times it in a histogram, and serves the whole exposition at `GET /metrics`.
 */
export default fp<MetricsOptions>(
  async (fastify, { token }) => {
    const registry = new Registry();
    const inCluster = cluster.isWorker && process.connected;
    if (inCluster) {
      // Lets the primary's aggregator read this worker's registry.
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([registry]);
    }
    const requests = new Counter({
      name: 'mutenet_http_requests_total',
      help: 'HTTP requests by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    const latency = new Histogram({
      name: 'mutenet_http_request_duration_seconds',
      help: 'HTTP request latency by method and route pattern, in seconds.',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });

    const metrics: Metrics = {
      registry,
      gauge(name, help, collect, labelNames = []) {
        const log = fastify.log;
        new Gauge({
          name,
          help,
          labelNames,
          registers: [registry],
          // Read from the database: every worker reads the same value.
          aggregator: 'first',
          async collect() {
            this.reset();
            try {
              const result = await collect();
              for (const { labels = {}, value } of typeof result === 'number' ? [{ value: result }] : result) {
                this.set(labels, value);
              }
            } catch (error) {
              log.warn({ metric: name, err: error }, 'metric collection failed; left out of this scrape');
              // A gauge without labels would otherwise show 0.
              if (labelNames.length === 0) this.remove();
            }
          },
        });
      },
      render: () => (inCluster ? clusterMetrics(registry) : registry.metrics()),
    };
    fastify.decorate('metrics', metrics);

    // Requests that matched no route share one label, so that unknown paths cannot grow the series.
    fastify.addHook('onResponse', async (request, reply) => {
      const method = request.method;
      const route = request.routeOptions.url ?? 'unmatched';
      requests.inc({ method, route, status: String(reply.statusCode) });
      latency.observe({ method, route }, reply.elapsedTime / 1000);
    });

    fastify.get('/metrics', async (request, reply) => {
      if (token) {
        const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
        if (!sameSecret(given, token)) {
          return sendError(request, reply.header('www-authenticate', 'Bearer'), 'UNAUTHORIZED');
        }
      }
      return reply.type(registry.contentType).send(await metrics.render());
    });
  },
  { name: 'metrics', dependencies: ['errors'] },
);
