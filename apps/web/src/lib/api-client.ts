import { type Endpoint, envelopeOf, SUCCESS_CODE } from '@mutenet/contract';
import * as z from 'zod/mini';
import { currentRequestLanguage, i18n, messageText } from '../i18n/i18n';
import type { Resources } from '../i18n/resources/en';
import { ApiError } from './api-error';
import { type ToastOptions, toastError, toastMistake } from './notify';
import { clearStorage, getToken } from './storage';

export { ApiError, type ApiErrorKind } from './api-error';

/** Spec section 7: 5 s for a call, 10 s for the helper calls (captcha, email code). */
export const DEFAULT_TIMEOUT_MS = 5_000;
export const HELPER_TIMEOUT_MS = 10_000;

const AnyEnvelopeSchema = envelopeOf(z.unknown());

type StatusKey = keyof Resources['http'];
const STATUS_TEXT: Record<number, StatusKey> = {
  400: 'status400',
  401: 'status401',
  403: 'status403',
  404: 'status404',
  405: 'status405',
  408: 'status408',
  500: 'status500',
  501: 'status501',
  502: 'status502',
  503: 'status503',
  504: 'status504',
  505: 'status505',
};

/** The spec's text for an HTTP status (section 8), in the language on screen. */
export function statusText(status: number): string {
  if (status === 429) return messageText('TOO_MANY_REQUESTS');
  return i18n.t(`http.${STATUS_TEXT[status] ?? 'other'}`);
}

const defaultUnauthorizedHandler = () => {
  window.location.assign(`${import.meta.env.BASE_URL}login`);
};
let unauthorizedHandler: () => void = defaultUnauthorizedHandler;

/** What happens after a 401 has cleared storage: the app sends the user to /login through its router. */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  unauthorizedHandler = handler ?? defaultUnauthorizedHandler;
}

type RequestOptions = { method?: string; timeout?: number; query?: Record<string, string>; body?: URLSearchParams };

/**
 * One request with the token, the request language and a time limit (spec section 7). `fetch` is looked up on every
 * call, so that tests can stand in for the network.
 */
async function request(
  path: string,
  { method = 'GET', timeout = DEFAULT_TIMEOUT_MS, query, body }: RequestOptions = {},
): Promise<Response> {
  const token = getToken();
  const headers = new Headers({ 'Accept-Language': currentRequestLanguage() });
  if (token) headers.set('Authorization', token);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new DOMException(`no answer in ${timeout} ms`, 'TimeoutError'));
    }, timeout);
  });
  try {
    const url = query ? `${path}?${new URLSearchParams(query)}` : path;
    const response = globalThis.fetch(url, { method, headers, body: body ?? null, signal: controller.signal });
    return await Promise.race([response, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export type FormValues = Record<string, string | number | undefined>;

export type CallOptions = {
  /** Sent form-encoded; fields that are `undefined` are left out. */
  body?: FormValues;
  query?: Record<string, string>;
  timeout?: number;
  /** Envelope codes the caller handles itself: they raise an `ApiError` without a toast. */
  quietCodes?: readonly number[];
  /** How the error toasts of this call show (the order details screen keeps them 2.5 s). */
  toast?: ToastOptions;
};

export type ApiResponse<E extends Endpoint> = { body: z.infer<E['response']>; headers: Headers };

function formBody(values: FormValues): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) form.append(key, String(value));
  }
  return form;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function failHttp(status: number, serverMessage: string | undefined, toast: ToastOptions | undefined): never {
  const message = serverMessage || statusText(status);
  if (status === 401) {
    clearStorage();
    toastError(message, toast);
    unauthorizedHandler();
  } else {
    toastError(message, toast);
  }
  throw new ApiError('http', message, { status });
}

/** Sends one call; no answer at all (a network failure, a time-out) is shown to the user and raised here. */
async function send(path: string, requestOptions: RequestOptions, toast?: ToastOptions): Promise<Response> {
  try {
    return await request(path, requestOptions);
  } catch (error) {
    const message = i18n.t('toast.networkError');
    toastError(message, toast);
    throw new ApiError('network', message, { data: error });
  }
}

/** Sends a contract endpoint's call, its body form-encoded. */
function sendCall({ method, path }: Endpoint, { body, timeout, query, toast }: CallOptions): Promise<Response> {
  return send(path, { method, timeout, query, body: body && formBody(body) }, toast);
}

/** An HTTP error status, or an envelope whose code is not 0: shown to the user (unless quiet) and raised. */
function failOnError(
  response: Response,
  envelope: ReturnType<typeof AnyEnvelopeSchema.safeParse>,
  options: CallOptions,
): void {
  if (!response.ok) failHttp(response.status, envelope.success ? envelope.data.msg : undefined, options.toast);
  if (envelope.success && envelope.data.code !== SUCCESS_CODE) {
    const { code, msg, data } = envelope.data;
    if (!options.quietCodes?.includes(code)) toastMistake(msg, options.toast);
    throw new ApiError('business', msg, { status: response.status, code, data });
  }
}

function parseResponse<E extends Endpoint>(endpoint: E, body: unknown, response: Response, options: CallOptions) {
  const parsed = endpoint.response.safeParse(body);
  if (!parsed.success) {
    const message = i18n.t('toast.invalidResponse');
    toastError(message, options.toast);
    throw new ApiError('invalid', message, { status: response.status, data: parsed.error });
  }
  return { body: parsed.data as z.infer<E['response']>, headers: response.headers };
}

/**
 * Calls one contract endpoint: sends the token and the language, form-encodes the body, checks the
 * envelope and parses the answer with the endpoint's response schema. Every failure is shown to the
 * user (spec section 8) and raised as an `ApiError`.
 */
export async function callEndpoint<E extends Endpoint>(
  endpoint: E,
  options: CallOptions = {},
): Promise<ApiResponse<E>> {
  const response = await sendCall(endpoint, options);
  const body = await readBody(response);
  failOnError(response, AnyEnvelopeSchema.safeParse(body), options);
  return parseResponse(endpoint, body, response, options);
}

/**
 * Calls an endpoint whose answer is plain text rather than an envelope (the subscription link): the body, without
 * surrounding white space, goes to the endpoint's schema. Failures (no answer, an HTTP status, an error envelope) are
 * shown and raised as for `callEndpoint`.
 */
export async function callTextEndpoint<E extends Endpoint>(
  endpoint: E,
  options: CallOptions = {},
): Promise<ApiResponse<E>> {
  const response = await sendCall(endpoint, options);
  const text = await response.text().catch(() => '');
  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  failOnError(response, AnyEnvelopeSchema.safeParse(isJson ? parseJson(text) : undefined), options);
  return parseResponse(endpoint, text.trim(), response, options);
}

/** A plain JSON file (not an envelope), such as the runtime configuration; no answer at all is shown as any call's. */
export async function fetchJson<T>(path: string, schema: z.ZodMiniType<T>): Promise<T> {
  const response = await send(path, {});
  if (!response.ok) throw new ApiError('http', `${path} answered ${response.status}`, { status: response.status });
  return schema.parse(await response.json());
}
