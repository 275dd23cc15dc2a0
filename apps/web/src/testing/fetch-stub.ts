import { vi } from 'vitest';

/** A request as the fake network saw it. */
export type RecordedRequest = {
  method: string;
  url: URL;
  path: string;
  headers: Headers;
  /** The form-encoded body, parsed (empty when there was none). */
  form: URLSearchParams;
  bodyText: string;
};

type Reply = Response | Promise<Response>;
type Handler = (request: RecordedRequest) => Reply;

/** A JSON answer in the `{code, msg, data}` envelope. */
export function envelope(
  data: unknown,
  {
    code = 0,
    msg = 'OK',
    status = 200,
    headers = {},
  }: { code?: number; msg?: string; status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify({ code, msg, data }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** A JSON answer that is not an envelope (the runtime configuration, say). */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export const CAPTCHA = { imgDat: 'data:image/svg+xml;base64,PHN2Zy8+', imgId: 'captcha-1' };

/**
 * Stands in for the network at the `fetch` level: records every request and answers from handlers
 * registered by method and path (the last registration wins). Unhandled requests answer HTTP 404.
 */
export function stubFetch() {
  const requests: RecordedRequest[] = [];
  const handlers: { method: string; path: string; handler: Handler }[] = [];
  let captchaCount = 0;

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url, window.location.href);
    const bodyText = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    const recorded: RecordedRequest = {
      method: request.method,
      url,
      path: url.pathname,
      headers: request.headers,
      form: new URLSearchParams(bodyText),
      bodyText,
    };
    requests.push(recorded);
    const match = [...handlers].reverse().find((h) => h.method === request.method && h.path === url.pathname);
    if (!match) return new Response('Not Found', { status: 404 });
    return match.handler(recorded);
  });
  vi.stubGlobal('fetch', fetchStub);

  const api = {
    requests,
    fetch: fetchStub,
    on(method: string, path: string, handler: Handler | Response) {
      handlers.push({ method, path, handler: typeof handler === 'function' ? handler : () => handler.clone() });
      return api;
    },
    /** Requests to one path, in order. */
    to(path: string, method?: string) {
      return requests.filter((r) => r.path === path && (method === undefined || r.method === method));
    },
    /** Serves a new captcha (captcha-1, captcha-2…) on every call. */
    serveCaptchas() {
      return api.on('GET', '/mutenet/verify/code/img', () => {
        captchaCount += 1;
        return envelope({ imgDat: CAPTCHA.imgDat, imgId: `captcha-${captchaCount}` });
      });
    },
  };
  return api;
}

export type FetchStub = ReturnType<typeof stubFetch>;
