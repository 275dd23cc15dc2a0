import { type Endpoint, envelopeOf, SUCCESS_CODE } from '@mutenet/contract';
import * as z from 'zod/mini';
import { ApiError } from '../lib/api-error';
import { consoleBasePath } from './base-path';
import { consoleRequestLanguage } from './i18n';

export { ApiError };

const AnyEnvelopeSchema = envelopeOf(z.unknown());

/** What an endpoint's answer carries once its envelope is unwrapped. */
export type DataOf<E extends Endpoint> = z.infer<E['response']> extends { data: infer D } ? D : never;

export type ConsoleCallOptions = {
  /** Fills the path's `:name` segments. */
  params?: Record<string, string | number>;
  /** Entries left `undefined` or empty are not sent. */
  query?: Record<string, string | number | undefined>;
  body?: unknown;
};

let onSignedOut: () => void = () => {};

/** What happens when a call answers 401 (the session ended): the console goes back to its sign-in. */
export function setSignedOutHandler(handler: () => void): void {
  onSignedOut = handler;
}

function urlOf({ path }: Endpoint, { params = {}, query = {} }: ConsoleCallOptions): string {
  const filled = path.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(String(params[name])));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const suffix = search.size > 0 ? `?${search}` : '';
  return `${consoleBasePath()}${filled}${suffix}`;
}

/**
 * Calls one of the contract's console endpoints: the session cookie goes along (same origin, so the browser also
 * sends the Origin that the server checks on changes), the body as JSON, the language of the screen; the answer is
 * parsed with the endpoint's schema and its `data` returned. An HTTP error or an envelope whose code is not 0 is
 * raised as an `ApiError` holding the server's message (already in the operator's language).
 */
export async function consoleCall<E extends Endpoint>(
  endpoint: E,
  options: ConsoleCallOptions = {},
): Promise<DataOf<E>> {
  const headers = new Headers({ 'Accept-Language': consoleRequestLanguage(), Accept: 'application/json' });
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  let response: Response;
  try {
    response = await globalThis.fetch(urlOf(endpoint, options), {
      method: endpoint.method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? null : JSON.stringify(options.body),
    });
  } catch (error) {
    throw new ApiError('network', 'network', { data: error });
  }
  const body: unknown = await response.json().catch(() => undefined);
  const envelope = AnyEnvelopeSchema.safeParse(body);
  if (!response.ok) {
    if (response.status === 401) onSignedOut();
    throw new ApiError('http', envelope.success ? envelope.data.msg : `HTTP ${response.status}`, {
      status: response.status,
    });
  }
  if (envelope.success && envelope.data.code !== SUCCESS_CODE) {
    const { code, msg, data } = envelope.data;
    throw new ApiError('business', msg, { status: response.status, code, data });
  }
  const parsed = endpoint.response.safeParse(body);
  if (!parsed.success) throw new ApiError('invalid', 'invalid answer', { status: response.status, data: parsed.error });
  return (parsed.data as { data: DataOf<E> }).data;
}
