import fp from 'fastify-plugin';
import { answerGathers, gatherFromWorkers } from '../../lib/cluster-gather.js';
import { sameSecret } from '../../lib/secrets.js';
import { sendError } from './errors.js';

/** Label names to values of one sample. */
export type Labels = Record<string, string>;

export type Sample = { labels?: Labels; value: number };

export interface Counter {
  inc(labels?: Labels, by?: number): void;
}

/**
 * Prometheus metrics of the process. Infrastructure only: modules register their own gauges (orders by status,
 * nodes online), whose values are read at scrape time.
 */
export interface Metrics {
  counter(name: string, help: string): Counter;
  /** A gauge read at each scrape; a collector that throws is left out of that scrape (and logged). */
  gauge(name: string, help: string, collect: () => Promise<Sample[] | number>): void;
  /** The exposition, in the Prometheus text format 0.0.4. */
  render(): Promise<string>;
  /** Counts and times a request answered before Fastify's hooks (lib/early-answers.ts), as they count the others. */
  countRequest(method: string, route: string, status: number, seconds: number): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Request latency buckets, in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeValue = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

function labelText(labels: Labels | undefined): string {
  const entries = Object.entries(labels ?? {});
  return entries.length ? `{${entries.map(([k, v]) => `${k}="${escapeValue(v)}"`).join(',')}}` : '';
}

function number(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

const header = (name: string, help: string, type: string) =>
  `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}`;

type Entry<T> = { labels: Labels; value: T };

/** A label set's key: a plain join, not JSON (names and values hold no NUL). */
function keyOf(labels: Labels): string {
  let key = '';
  for (const name in labels) key += `${name}\u0000${labels[name]}\u0000`;
  return key;
}

/** One value per label set. */
class Series<T> {
  readonly #entries = new Map<string, Entry<T>>();
  constructor(private readonly initial: () => T) {}
  entry(labels: Labels): Entry<T> {
    const key = keyOf(labels);
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = { labels, value: this.initial() };
      this.#entries.set(key, entry);
    }
    return entry;
  }
  entries(): Entry<T>[] {
    return [...this.#entries.values()];
  }
}

/** Several processes' entries of one metric as one, the values of each label set added up. */
function merged<T>(lists: Entry<T>[][], add: (a: T, b: T) => T): Entry<T>[] {
  const byKey = new Map<string, Entry<T>>();
  for (const list of lists) {
    for (const { labels, value } of list) {
      const key = keyOf(labels);
      const seen = byKey.get(key);
      byKey.set(key, { labels, value: seen ? add(seen.value, value) : value });
    }
  }
  return [...byKey.values()];
}

class CounterMetric implements Counter {
  readonly series = new Series<number>(() => 0);
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1) {
    this.series.entry(labels).value += by;
  }
  static add = (a: number, b: number) => a + b;
  render(entries: Entry<number>[]): string {
    const lines = entries.map(({ labels, value }) => `${this.name}${labelText(labels)} ${number(value)}`);
    return [header(this.name, this.help, 'counter'), ...lines].join('\n');
  }
}

type Buckets = { counts: number[]; sum: number; count: number };

/** Counts a value in the first bucket it fits; the buckets are summed up when rendered, as the format wants them. */
function observe(buckets: Buckets, value: number) {
  const index = LATENCY_BUCKETS.findIndex((bound) => value <= bound);
  if (index >= 0) buckets.counts[index]! += 1;
  buckets.sum += value;
  buckets.count += 1;
}

class HistogramMetric {
  readonly series = new Series<Buckets>(() => ({ counts: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }));
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  static add = (a: Buckets, b: Buckets): Buckets => ({
    counts: a.counts.map((count, index) => count + b.counts[index]!),
    sum: a.sum + b.sum,
    count: a.count + b.count,
  });
  render(entries: Entry<Buckets>[]): string {
    const lines: string[] = [header(this.name, this.help, 'histogram')];
    for (const { labels, value } of entries) {
      let atOrBelow = 0;
      LATENCY_BUCKETS.forEach((bound, index) => {
        atOrBelow += value.counts[index]!;
        lines.push(`${this.name}_bucket${labelText({ ...labels, le: String(bound) })} ${atOrBelow}`);
      });
      lines.push(`${this.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${value.count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${number(value.sum)}`);
      lines.push(`${this.name}_count${labelText(labels)} ${value.count}`);
    }
    return lines.join('\n');
  }
}

type Gauge = { name: string; help: string; collect: () => Promise<Sample[] | number> };

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
    const names = new Set<string>();
    const claim = (name: string) => {
      if (!NAME.test(name) || names.has(name)) throw new Error(`bad or repeated metric name "${name}"`);
      names.add(name);
    };
    const counters: CounterMetric[] = [];
    const gauges: Gauge[] = [];

    const counter = (name: string, help: string) => {
      claim(name);
      const metric = new CounterMetric(name, help);
      counters.push(metric);
      return metric;
    };
    const requests = counter('mutenet_http_requests_total', 'HTTP requests by method, route pattern and status.');
    claim('mutenet_http_request_duration_seconds');
    const latency = new HistogramMetric(
      'mutenet_http_request_duration_seconds',
      'HTTP request latency by method and route pattern, in seconds.',
    );

    // Under WEB_CONCURRENCY each worker counts its own requests and jobs: a scrape shows them all added up.
    type Counts = { counters: Record<string, Entry<number>[]>; latency: Entry<Buckets>[] };
    const counts = (): Counts => ({
      counters: Object.fromEntries(counters.map((metric) => [metric.name, metric.series.entries()])),
      latency: latency.series.entries(),
    });
    answerGathers('metrics', counts);

    async function renderGauge({ name, help, collect }: Gauge): Promise<string> {
      let samples: Sample[];
      try {
        const result = await collect();
        samples = typeof result === 'number' ? [{ value: result }] : result;
      } catch (error) {
        fastify.log.warn({ metric: name, err: error }, 'metric collection failed; left out of this scrape');
        samples = [];
      }
      const lines = samples.map(({ labels, value }) => `${name}${labelText(labels)} ${number(value)}`);
      return [header(name, help, 'gauge'), ...lines].join('\n');
    }

    /** Each route's series, per method: found once, so that a request adds to them without building labels. */
    const routes = new Map<string, { latency: Buckets; byStatus: Map<number, { value: number }> }>();
    const countRequest = (method: string, route: string, status: number, seconds: number) => {
      const key = `${method} ${route}`;
      let series = routes.get(key);
      if (!series) {
        series = { latency: latency.series.entry({ method, route }).value, byStatus: new Map() };
        routes.set(key, series);
      }
      let count = series.byStatus.get(status);
      if (!count) {
        count = requests.series.entry({ method, route, status: String(status) });
        series.byStatus.set(status, count);
      }
      count.value += 1;
      observe(series.latency, seconds);
    };

    const api: Metrics = {
      counter,
      gauge(name, help, collect) {
        claim(name);
        gauges.push({ name, help, collect });
      },
      async render() {
        const [everyWorker, gauged] = await Promise.all([
          gatherFromWorkers('metrics', counts),
          Promise.all(gauges.map(renderGauge)),
        ]);
        const parts = [
          ...counters.map((metric) =>
            metric.render(
              merged(
                everyWorker.map((each) => each.counters[metric.name] ?? []),
                CounterMetric.add,
              ),
            ),
          ),
          latency.render(
            merged(
              everyWorker.map((each) => each.latency),
              HistogramMetric.add,
            ),
          ),
          ...gauged,
        ];
        return `${parts.join('\n')}\n`;
      },
      countRequest,
    };
    fastify.decorate('metrics', api);

    // A callback hook: it runs on every request, where a promise each is a measurable cost. Requests that matched no
    // route share one label, so that unknown paths cannot grow the series.
    fastify.addHook('onResponse', (request, reply, done) => {
      countRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    fastify.get('/metrics', async (request, reply) => {
      if (token) {
        const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
        if (!sameSecret(given, token)) {
          return sendError(request, reply.header('www-authenticate', 'Bearer'), 'UNAUTHORIZED');
        }
      }
      return reply
        .type(METRICS_CONTENT_TYPE)
        .header('cache-control', 'no-store')
        .send(await api.render());
    });
  },
  { name: 'metrics', dependencies: ['errors'] },
);
