import {
  ERROR_CODE,
  getCaptcha,
  getSubscribeUrl,
  login,
  logout,
  RUNTIME_CONFIG_PATH,
  RuntimeConfigSchema,
  register,
  sendEmailCode,
} from '@mutenet/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../i18n/i18n';
import { envelope, type FetchStub, stubFetch } from '../testing/fetch-stub';
import { ApiError, callEndpoint, callTextEndpoint, fetchJson, setUnauthorizedHandler, statusText } from './api-client';
import { getSessionValue, getToken, SESSION_KEYS, setSessionValue, setToken } from './storage';
import { notifications } from './toasts';

let net: FetchStub;
let toasts: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  net = stubFetch();
  toasts = vi.spyOn(notifications, 'show');
});

function lastToast() {
  return toasts.mock.calls.at(-1)?.[0] as { title?: string; message: string } | undefined;
}

describe('request headers', () => {
  it('sends the stored token as it is, and the request language', async () => {
    setToken('opaque-token');
    net.on('POST', '/mutenet/logout', envelope(null));
    await callEndpoint(logout);
    const [request] = net.to('/mutenet/logout');
    expect(request?.headers.get('authorization')).toBe('opaque-token');
    expect(request?.headers.get('accept-language')).toBe('en');
  });

  it('maps each language to its request value', async () => {
    net.on('POST', '/mutenet/logout', envelope(null));
    for (const [language, expected] of [
      ['por', 'pt-BR'],
      ['zh', 'zh-Hans'],
      ['en', 'en'],
    ] as const) {
      await setLanguage(language);
      await callEndpoint(logout);
      expect(net.requests.at(-1)?.headers.get('accept-language')).toBe(expected);
    }
  });

  it('sends no Authorization header without a token', async () => {
    net.on('POST', '/mutenet/logout', envelope(null));
    await callEndpoint(logout);
    expect(net.requests[0]?.headers.has('authorization')).toBe(false);
  });
});

describe('bodies and answers', () => {
  it('form-encodes the body and leaves out undefined fields', async () => {
    net.on('POST', '/mutenet/register', envelope(null));
    await callEndpoint(register, {
      body: { name: 'Ana', email: 'ana@example.com', password: 'Passw0rd', emailCode: '123456', inviteCode: undefined },
    });
    const [request] = net.to('/mutenet/register');
    expect(request?.headers.get('content-type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      name: 'Ana',
      email: 'ana@example.com',
      password: 'Passw0rd',
      emailCode: '123456',
    });
  });

  it('puts the query in the URL', async () => {
    net.on('POST', '/mutenet/verify/code/email', envelope(null));
    await callEndpoint(sendEmailCode, {
      query: { action: 'register' },
      body: { imgId: 'i', imgCode: 'c', email: 'a@b.co' },
    });
    expect(net.requests[0]?.url.searchParams.get('action')).toBe('register');
  });

  it('parses the answer with the endpoint schema and hands back the headers', async () => {
    net.on('POST', '/mutenet/login', envelope({ user: 'ana@example.com' }, { headers: { authorization: 'tok' } }));
    const { body, headers } = await callEndpoint(login, { body: {} });
    expect(body.data.user).toBe('ana@example.com');
    expect(headers.get('authorization')).toBe('tok');
  });

  it('rejects an answer that does not match the schema', async () => {
    net.on('GET', '/mutenet/verify/code/img', envelope({ nothing: true }));
    const error = await callEndpoint(getCaptcha).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('invalid');
  });
});

describe('envelope errors', () => {
  it('toasts the server message under "Mistake" and raises the code', async () => {
    net.on('POST', '/mutenet/login', envelope(null, { code: ERROR_CODE.LOGIN_FAILED, msg: 'Wrong email or password' }));
    const error = (await callEndpoint(login, { body: {} }).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('business');
    expect(error.code).toBe(ERROR_CODE.LOGIN_FAILED);
    expect(lastToast()).toMatchObject({ title: 'Mistake', message: 'Wrong email or password' });
  });

  it('stays quiet for codes the caller handles', async () => {
    net.on('POST', '/mutenet/login', envelope([{ no: '1' }], { code: ERROR_CODE.ORDER_UNFINISHED, msg: 'unfinished' }));
    const error = (await callEndpoint(login, { body: {}, quietCodes: [ERROR_CODE.ORDER_UNFINISHED] }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error.code).toBe(ERROR_CODE.ORDER_UNFINISHED);
    expect(error.details.data).toEqual([{ no: '1' }]);
    expect(toasts).not.toHaveBeenCalled();
  });
});

describe('HTTP statuses (spec section 8)', () => {
  it.each([
    [400, 'Request Error'],
    [403, 'No access'],
    [404, 'Request error, the resource was not found'],
    [405, 'Request method not allowed'],
    [408, 'Request timeout'],
    [500, 'Server side error'],
    [501, 'Network not implemented'],
    [502, 'Network error'],
    [503, 'The service is unavailable'],
    [504, 'Network Timeout'],
    [505, 'The HTTP version does not support this request'],
    [418, 'Connection error'],
  ])('shows the text of HTTP %i when the body has no message', async (status, text) => {
    net.on('POST', '/mutenet/logout', new Response('', { status }));
    const error = (await callEndpoint(logout).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('http');
    expect(error.status).toBe(status);
    expect(lastToast()).toMatchObject({ title: 'Error', message: text });
  });

  it('prefers the message of an envelope body (a rate limit, say)', async () => {
    net.on(
      'POST',
      '/mutenet/login',
      envelope(null, { status: 429, code: ERROR_CODE.TOO_MANY_REQUESTS, msg: 'Slow down, try in 1 minute' }),
    );
    await callEndpoint(login, { body: {} }).catch(() => undefined);
    expect(lastToast()?.message).toBe('Slow down, try in 1 minute');
  });

  it('speaks the language on screen', async () => {
    await setLanguage('por');
    expect(statusText(403)).toBe('Sem acesso');
    await setLanguage('zh');
    expect(statusText(500)).toBe('服务器端错误');
  });

  it('on 401 clears local and session storage, says so and hands over to the login screen', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    setToken('stale');
    setSessionValue(SESSION_KEYS.email, 'ana@example.com');
    setSessionValue(SESSION_KEYS.activePath, '/orders');
    net.on('POST', '/mutenet/login', new Response('', { status: 401 }));

    const error = (await callEndpoint(login).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(401);
    expect(getToken()).toBeNull();
    expect(getSessionValue(SESSION_KEYS.email)).toBeNull();
    expect(getSessionValue(SESSION_KEYS.activePath)).toBeNull();
    expect(lastToast()).toMatchObject({ title: 'Error', message: 'Login expired' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });
});

describe('no answer', () => {
  it('toasts "Network error" under "Error" when the request fails', async () => {
    net.on('POST', '/mutenet/logout', () => Promise.reject(new TypeError('Failed to fetch')));
    const error = (await callEndpoint(logout).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('network');
    expect(lastToast()).toMatchObject({ title: 'Error', message: 'Network error' });
  });

  it('toasts "Network error" for a plain JSON file too (the runtime configuration), in the language on screen', async () => {
    await setLanguage('por');
    net.on('GET', RUNTIME_CONFIG_PATH, () => Promise.reject(new TypeError('Failed to fetch')));
    const error = (await fetchJson(RUNTIME_CONFIG_PATH, RuntimeConfigSchema).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('network');
    expect(lastToast()).toMatchObject({ title: 'Erro', message: 'Erro de rede' });
  });

  it('gives up after 5 s by default and 10 s for helper calls', async () => {
    vi.useFakeTimers();
    const never = () => new Promise<Response>(() => {});
    net.on('POST', '/mutenet/logout', never).on('GET', '/mutenet/verify/code/img', never);

    const normal = callEndpoint(logout).catch((e: unknown) => e);
    const helper = callEndpoint(getCaptcha, { timeout: 10_000 }).catch((e: unknown) => e);
    let helperDone = false;
    void helper.then(() => {
      helperDone = true;
    });

    await vi.advanceTimersByTimeAsync(5_001);
    expect(((await normal) as ApiError).kind).toBe('network');
    expect(helperDone).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(((await helper) as ApiError).kind).toBe('network');
  });
});

describe('plain-text answers (the subscription link)', () => {
  const LINK = 'https://panel.example/sub/abc123';
  const text = (body: string, status = 200) =>
    new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

  it('hands back the body as it came, with the token and the language sent', async () => {
    setToken('tok');
    net.on('GET', '/mutenet/user/subscribe/url', text(`${LINK}\n`));
    const { body } = await callTextEndpoint(getSubscribeUrl);
    expect(body).toBe(LINK);
    expect(net.requests[0]?.headers.get('authorization')).toBe('tok');
    expect(net.requests[0]?.headers.get('accept-language')).toBe('en');
  });

  it('treats HTTP statuses as callEndpoint does, 401 included', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    setToken('stale');
    net.on('GET', '/mutenet/user/subscribe/url', new Response('', { status: 401 }));
    const error = (await callTextEndpoint(getSubscribeUrl).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('http');
    expect(getToken()).toBeNull();
    expect(lastToast()).toMatchObject({ title: 'Error', message: 'Login expired' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('shows the message of an error envelope', async () => {
    net.on(
      'GET',
      '/mutenet/user/subscribe/url',
      envelope(null, { status: 429, code: ERROR_CODE.TOO_MANY_REQUESTS, msg: 'Slow down' }),
    );
    const error = (await callTextEndpoint(getSubscribeUrl).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(429);
    expect(lastToast()?.message).toBe('Slow down');
  });

  it('toasts "Network error" when there is no answer', async () => {
    net.on('GET', '/mutenet/user/subscribe/url', () => Promise.reject(new TypeError('Failed to fetch')));
    const error = (await callTextEndpoint(getSubscribeUrl).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('network');
  });
});
