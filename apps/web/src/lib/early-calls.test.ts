import { getPlans, login } from '@mutenet/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, type FetchStub, stubFetch } from '../testing/fetch-stub';
import { ApiError, callEndpoint } from './api-client';
import {
  EARLY_ANSWER_MAX_AGE_MS,
  EARLY_ANSWERS_GLOBAL,
  earlyCallsScript,
  earlyCallsSetup,
  sendEarlyCalls,
} from './early-calls';
import { SESSION_KEYS, setSessionValue, setToken } from './storage';

const PLANS = { traffic: [], durational: [] };
const USER = { user: 'ana@example.com' };
const CALLS = [getPlans, login];

let net: FetchStub;

beforeEach(() => {
  net = stubFetch().on('GET', getPlans.path, envelope(PLANS)).on('POST', login.path, envelope(USER));
  // The tests run in English (the set-up's language); the tab names it as the app stores it.
  setSessionValue(SESSION_KEYS.language, 'en');
});

afterEach(() => {
  delete (globalThis as Record<string, unknown>)[EARLY_ANSWERS_GLOBAL];
  history.replaceState(null, '', '/');
});

/** Sends the calls as the page does; the stand-in network has recorded them once the promises' callbacks have run. */
async function sendEarly() {
  sendEarlyCalls(earlyCallsSetup(CALLS), EARLY_ANSWERS_GLOBAL);
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe("a signed-in page's first calls, sent as it starts", () => {
  it('sends each call once with the session and the language, and the api client takes each answer once', async () => {
    setToken('tok');
    await sendEarly();
    expect(net.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /mutenet/packages',
      'POST /mutenet/login',
    ]);
    for (const request of net.requests) {
      expect(request.headers.get('authorization')).toBe('tok');
      expect(request.headers.get('accept-language')).toBe('en');
    }
    expect((await callEndpoint(getPlans)).body.data).toEqual(PLANS);
    expect((await callEndpoint(login)).body.data).toEqual(USER);
    expect(net.requests).toHaveLength(2);
    // Taken once: the next call goes to the network.
    await callEndpoint(getPlans);
    expect(net.to(getPlans.path)).toHaveLength(2);
  });

  it('takes the language as the app does: the URL’s lang in either form, then the tab’s, then Portuguese', async () => {
    setToken('tok');
    const languageSent = async () => {
      await sendEarly();
      return net.requests.at(-1)?.headers.get('accept-language');
    };
    history.replaceState(null, '', '/person/shop?lang=zh-hans');
    expect(await languageSent()).toBe('zh-Hans');
    history.replaceState(null, '', '/person/shop?lang=por');
    expect(await languageSent()).toBe('pt-BR');
    history.replaceState(null, '', '/person/shop?lang=xx');
    expect(await languageSent()).toBe('en');
    sessionStorage.clear();
    expect(await languageSent()).toBe('pt-BR');
  });

  it('sends nothing without a session', async () => {
    await sendEarly();
    expect(net.requests).toHaveLength(0);
    expect(EARLY_ANSWERS_GLOBAL in globalThis).toBe(false);
  });

  it('is not taken by a call with another session, another language, a body or once stale: those ask anew', async () => {
    setToken('tok');
    await sendEarly();
    setToken('another');
    await callEndpoint(getPlans);
    expect(net.to(getPlans.path).map((request) => request.headers.get('authorization'))).toEqual(['tok', 'another']);
    await callEndpoint(login, { body: { email: 'ana@example.com', password: 'Passw0rd' } });
    expect(net.to(login.path)).toHaveLength(2);
    expect(net.to(login.path)[1]?.form?.get('email')).toBe('ana@example.com');

    setToken('tok');
    await sendEarly();
    const sentAt = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(sentAt + EARLY_ANSWER_MAX_AGE_MS + 1);
    await callEndpoint(getPlans);
    expect(net.to(getPlans.path)).toHaveLength(4);

    vi.restoreAllMocks();
    // The page read Chinese from the tab; the api client speaks the language on screen, English here.
    setSessionValue(SESSION_KEYS.language, 'zh');
    await sendEarly();
    await callEndpoint(getPlans);
    expect(
      net
        .to(getPlans.path)
        .map((request) => request.headers.get('accept-language'))
        .slice(-2),
    ).toEqual(['zh-Hans', 'en']);
  });

  it('hands a failed call to the caller, as its own would have failed', async () => {
    setToken('tok');
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('offline')));
    await sendEarly();
    await expect(callEndpoint(getPlans)).rejects.toEqual(expect.objectContaining({ kind: 'network' }));
    await expect(callEndpoint(login)).rejects.toBeInstanceOf(ApiError);
  });

  it('runs as the page’s inline script, from its source alone', async () => {
    setToken('tok');
    new Function(earlyCallsScript(CALLS))();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(net.requests).toHaveLength(2);
    expect((await callEndpoint(getPlans)).body.data).toEqual(PLANS);
    expect(net.requests).toHaveLength(2);
  });

  it('writes no markup into the page: the script holds no "<"', () => {
    expect(earlyCallsScript([{ method: 'GET', path: '/x</script><script>alert(1)//' }])).not.toContain('<');
  });
});
