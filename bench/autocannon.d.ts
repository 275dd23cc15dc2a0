// The part of autocannon 9's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    type Request = {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      setupRequest?: (request: Request) => Request;
    };
    type Options = { url: string; connections: number; duration: number; timeout: number; requests: Request[] };
    type Result = { errors: number; timeouts: number };
    type Instance = EventEmitter & PromiseLike<Result>;
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
