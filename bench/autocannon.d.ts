// The part of autocannon 9's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    type Request = {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request | undefined;
    };
    type Options = {
      url: string;
      method?: string;
      connections?: number;
      duration?: number;
      amount?: number;
      /** Requests per second over all connections. */
      overallRate?: number;
      timeout?: number;
      sampleInt?: number;
      headers?: Record<string, string>;
      body?: string | Buffer;
      requests?: Request[];
    };
    type Result = { duration: number; errors: number; timeouts: number; non2xx: number };
    type Instance = EventEmitter & PromiseLike<Result> & { stop(): void };
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
