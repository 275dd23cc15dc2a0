import { type Endpoint, type RequestLanguage, SUCCESS_CODE } from '@mutenet/contract';
import type * as z from 'zod/mini';

/** Spec section 7: 5 seconds for a call. */
const TIMEOUT_MS = 5_000;

export type CheckoutSession = { token: string; language: RequestLanguage };

export type CheckoutErrorKind = 'unauthorized' | 'network' | 'server' | 'invalid';

/** Why a checkout call failed; `message` is the server's, in the page's language, when it sent one. */
export class CheckoutError extends Error {
  override readonly name = 'CheckoutError';
  constructor(
    readonly kind: CheckoutErrorKind,
    message = '',
    readonly code?: number,
  ) {
    super(message);
  }
}

/** What an endpoint's envelope carries in `data`. */
type DataOf<E extends Endpoint> = z.output<E['response']> extends { data: infer D } ? D : never;

/**
 * A small fetch wrapper for the checkout page (the panel's api client would bring i18next and its toasts along):
 * the token from the cookie as the bare `Authorization` header, the page's language, form-encoded bodies, the
 * envelope checked and the answer parsed with the contract's schema.
 */
export async function callCheckout<E extends Endpoint>(
  endpoint: E,
  session: CheckoutSession,
  { params = {}, body }: { params?: Record<string, string>; body?: Record<string, string> } = {},
): Promise<DataOf<E>> {
  const path = endpoint.path.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(params[name] ?? ''));
  const headers: Record<string, string> = {
    Authorization: session.token,
    'Accept-Language': session.language,
    Accept: 'application/json',
  };
  if (body) headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';

  let response: Response;
  try {
    response = await fetch(path, {
      method: endpoint.method,
      headers,
      body: body ? new URLSearchParams(body).toString() : undefined,
      credentials: 'same-origin',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new CheckoutError('network');
  }

  const json: unknown = await response.json().catch(() => undefined);
  const envelope = json as { code?: unknown; msg?: unknown } | undefined;
  const message = typeof envelope?.msg === 'string' ? envelope.msg : '';
  if (response.status === 401) throw new CheckoutError('unauthorized', message);
  if (!response.ok) throw new CheckoutError('server', message, response.status);
  if (typeof envelope?.code === 'number' && envelope.code !== SUCCESS_CODE) {
    throw new CheckoutError('server', message, envelope.code);
  }
  const parsed = endpoint.response.safeParse(json);
  if (!parsed.success) throw new CheckoutError('invalid');
  return (parsed.data as { data: DataOf<E> }).data;
}
