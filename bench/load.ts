/** The load: autocannon for the concurrent cases, a plain sequential loop for the pushes; both on 127.0.0.1 only. */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export type Measured = {
  /** Completed requests per second over the measured window. */
  rps: number;
  requests: number;
  /** Latency percentiles in milliseconds, from every response's own time (autocannon's histogram rounds to 1 ms). */
  p50: number;
  p99: number;
  /** Responses by status code; errors are failed connections or timeouts. */
  statuses: Record<number, number>;
  errors: number;
  /** Response bytes per request (headers included). */
  bytesPerRequest: number;
};

export type Target = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer;
  /** Per request: the path, extra headers and body (the feed varies its token and client address, login its form). */
  vary?: (n: number) => {
    path: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
  };
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * How long one measurement lasts: a number of seconds, or a number of requests (for answers that take long);
 * `rate` caps the requests per second over all connections (the soak's steady load).
 */
export type Plan = { connections: number; rate?: number } & ({ seconds: number } | { amount: number });

/** Raw samples of one or more measurements, merged before they are summarized. */
export type Samples = { times: number[]; statuses: Record<number, number>; errors: number; bytes: number; ms: number };

export function emptySamples(): Samples {
  return { times: [], statuses: {}, errors: 0, bytes: 0, ms: 0 };
}

export function merge(into: Samples, from: Samples): Samples {
  for (const ms of from.times) into.times.push(ms);
  for (const [status, count] of Object.entries(from.statuses)) {
    into.statuses[Number(status)] = (into.statuses[Number(status)] ?? 0) + count;
  }
  into.errors += from.errors;
  into.bytes += from.bytes;
  into.ms += from.ms;
  return into;
}

export function summarize({ times, statuses, errors, bytes, ms }: Samples): Measured {
  const sorted = times.slice().sort((a, b) => a - b);
  return {
    rps: sorted.length / (ms / 1000),
    requests: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    statuses,
    errors,
    bytesPerRequest: sorted.length ? bytes / sorted.length : 0,
  };
}

/**
 * `connections` keep-alive connections sending back to back, for some seconds or until `amount` requests have been
 * answered (then nothing in flight is cut off at the end, which matters when one answer takes a second).
 */
export async function hammer(target: Target, plan: Plan): Promise<Samples> {
  const samples = emptySamples();
  let counter = 0;
  const { vary } = target;
  const started = performance.now();
  const instance = autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    connections: plan.connections,
    ...('amount' in plan ? { amount: plan.amount } : { duration: plan.seconds }),
    ...(plan.rate ? { overallRate: plan.rate } : {}),
    timeout: 60,
    // Checks for the end every 100 ms rather than every second.
    sampleInt: 100,
    headers: target.headers ?? {},
    ...(target.body ? { body: target.body } : {}),
    ...(vary
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const { path, method, headers, body } = vary(counter++);
                return {
                  ...request,
                  path,
                  ...(method ? { method } : {}),
                  headers: { ...target.headers, ...headers },
                  ...(body ? { body } : {}),
                };
              },
            },
          ],
        }
      : {}),
  });
  let last = started;
  instance.on('response', (_client: unknown, status: number, responseBytes: number, ms: number) => {
    last = performance.now();
    samples.times.push(ms);
    samples.statuses[status] = (samples.statuses[status] ?? 0) + 1;
    samples.bytes += responseBytes;
  });
  const result = await instance;
  // From the start to the last answer: autocannon notices the end only at its next sampling tick.
  samples.ms = last - started;
  samples.errors = result.errors + result.timeouts;
  return samples;
}

/**
 * One request at a time on one keep-alive connection, `count` times or until `budgetSeconds` have passed (at least
 * `minimum` times): for requests that take long, such as a push of 10,000 users' traffic.
 */
export async function sequential(
  target: Target & { path: string },
  { count, minimum, budgetSeconds }: { count: number; minimum: number; budgetSeconds: number },
  /** Run after each request, untimed: what its time is compared with, so that a change in the load hits both. */
  between?: () => Promise<void>,
): Promise<Measured & { lastBody: string }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples = emptySamples();
  let lastBody = '';
  const started = performance.now();
  try {
    for (let i = 0; i < count; i++) {
      if (i >= minimum && performance.now() - started > budgetSeconds * 1000) break;
      const begin = performance.now();
      const { status, body } = await send(target, agent);
      const ms = performance.now() - begin;
      samples.times.push(ms);
      samples.ms += ms;
      samples.statuses[status] = (samples.statuses[status] ?? 0) + 1;
      samples.bytes += body.length;
      lastBody = body.toString('utf8');
      await between?.();
    }
  } finally {
    agent.destroy();
  }
  return { ...summarize(samples), lastBody };
}

export type Captured = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One request, the answer's bytes as they came (no decompression). */
export function send(target: Target & { path: string }, agent?: http.Agent): Promise<Captured> {
  const url = new URL(target.path, target.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: target.method ?? 'GET', headers: target.headers ?? {}, ...(agent ? { agent } : {}) },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts) }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(target.body);
  });
}
