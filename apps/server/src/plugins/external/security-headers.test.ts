import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { httpClient } from '../../test/http-client.js';
import { cspOf, expectSecurityHeaders } from '../../test/security-headers.js';
import { addNodes, agent, type Customer, customerWithPackage } from '../../test/subscription.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0', accept: 'text/html' };
const METRICS_TOKEN = 'metrics-token-of-the-headers-test';

/** The headers of an answer that is neither of the web app's pages: a policy that loads nothing, and no caching. */
function expectPrivateAnswer(headers: Headers) {
  expectSecurityHeaders(headers);
  expect(cspOf(headers).get('default-src')).toEqual(["'none'"]);
  expect(headers.get('cache-control')).toBe('no-store');
}

describe('security headers of the API, the feed and the node API', () => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let customer: Customer;

  beforeAll(async () => {
    app = await startTestApp({ env: { METRICS_TOKEN } });
    seeded = await seedCatalog(app);
    customer = await customerWithPackage(app, 'headers@example.com', seeded.traffic30);
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each([
    '/mutenet/packages',
    '/mutenet/payment/currencies',
    '/mutenet/user/nodes',
    '/mutenet/notice',
    '/mutenet/user/orders',
    '/mutenet/user/package/stat',
    '/mutenet/user/subscribe/url',
  ])('answers the authenticated %s with no-store, and its 401 as well', async (path) => {
    const signedIn = await customer.api.get(path, { token: customer.token });
    expect(signedIn.status).toBe(200);
    expectPrivateAnswer(signedIn.headers);
    const anonymous = await httpClient(app.url).get(path);
    expect(anonymous.status).toBe(401);
    expectPrivateAnswer(anonymous.headers);
  });

  it('answers the checkout, the session check and a failed login with no-store', async () => {
    const { body } = await customer.api.get('/mutenet/user/orders', { token: customer.token });
    const orderNo = body.data[0].no as string;
    const byHeader = await customer.api.get(`/payment/checkout/${orderNo}`, { token: customer.token });
    const byCookie = await customer.api.get(`/payment/checkout/${orderNo}`, {
      headers: { cookie: `token=${customer.token}` },
    });
    const sessionCheck = await customer.api.post('/mutenet/login', { token: customer.token });
    const failedLogin = await httpClient(app.url).post('/mutenet/login', {
      form: { email: 'headers@example.com', password: 'wrong-password', imgId: 'x', imgCode: 'y' },
    });
    for (const answer of [byHeader, byCookie, sessionCheck]) expect(answer.body.code).toBe(0);
    expect(failedLogin.body.code).not.toBe(0);
    for (const answer of [byHeader, byCookie, sessionCheck, failedLogin]) expectPrivateAnswer(answer.headers);
  });

  it('answers validation errors, unknown paths and refused bodies with nosniff and no-store', async () => {
    const api = httpClient(app.url);
    const answers = [
      await api.get(`/payment/checkout/${'1'.repeat(65)}`, { token: customer.token }),
      await api.get('/mutenet/no-such-call'),
      await api.post('/mutenet/login', { raw: { body: 'x', type: 'text/plain' } }),
    ];
    expect(answers.map(({ status }) => status)).toEqual([400, 404, 415]);
    for (const { headers } of answers) {
      expect(headers.get('content-type')).toMatch(/^application\/json/);
      expectPrivateAnswer(headers);
    }
  });

  it('answers the feed, as data and as the page for browsers, with nosniff and no-store', async () => {
    const link = new URL((await customer.api.get('/mutenet/user/subscribe/url', { token: customer.token })).text);
    const api = httpClient(app.url);
    const data = await api.get(link.pathname, { headers: { 'user-agent': 'v2rayNG/1.9.30' } });
    const page = await api.get(link.pathname, { headers: BROWSER });
    const unknown = await api.get('/sub/unknown-token', { headers: BROWSER });
    expect([data.status, page.status, unknown.status]).toEqual([200, 200, 404]);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // The page's one inline style sheet is all it may use: no script, no image, no form target.
    expect(cspOf(page.headers).get('style-src')).toEqual(["'unsafe-inline'"]);
    expect(cspOf(page.headers).get('form-action')).toEqual(["'none'"]);
    for (const { headers } of [data, page, unknown]) expectPrivateAnswer(headers);
  });

  it("answers a node's calls, and their 304s, with nosniff and no-store (they carry users' credentials)", async () => {
    const [node] = await addNodes(app);
    const calls = agent(app, node!);
    const users = await calls.users();
    const unchanged = await calls.users(users.headers.get('etag') ?? '');
    const config = await calls.config();
    const refused = await httpClient(app.url).get(`/api/v1/server/UniProxy/user?node_id=${node!.id}&token=wrong`);
    expect([users.status, unchanged.status, config.status, refused.status]).toEqual([200, 304, 200, 403]);
    for (const { headers } of [users, unchanged, config, refused]) expectPrivateAnswer(headers);
  });

  it('answers the metrics with nosniff and no-store', async () => {
    const metrics = await httpClient(app.url).get('/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.status).toBe(200);
    expectPrivateAnswer(metrics.headers);
  });
});

describe('Strict-Transport-Security', () => {
  let behindProxy: TestApp;
  let direct: TestApp;
  beforeAll(async () => {
    [behindProxy, direct] = await Promise.all([startTestApp(), startTestApp({ env: { TRUST_PROXY: 'false' } })]);
  });
  afterAll(async () => {
    await Promise.all([behindProxy?.close(), direct?.close()]);
  });

  const hsts = async (app: TestApp, path: string, headers: Record<string, string> = {}) =>
    (await httpClient(app.url).get(path, { headers })).headers.get('strict-transport-security');

  it.each(['/healthz', '/mutenet/verify/code/img', '/person/', '/sub/unknown-token'])(
    'is sent on %s when the trusted proxy says the request came over HTTPS, and never over plain HTTP',
    async (path) => {
      expect(await hsts(behindProxy, path, { 'x-forwarded-proto': 'https' })).toBe(
        'max-age=31536000; includeSubDomains',
      );
      expect(await hsts(behindProxy, path)).toBeNull();
      expect(await hsts(behindProxy, path, { 'x-forwarded-proto': 'http' })).toBeNull();
    },
  );

  it('follows the proxy nearest the server when the header lists several', async () => {
    expect(await hsts(behindProxy, '/healthz', { 'x-forwarded-proto': 'http, https' })).not.toBeNull();
    expect(await hsts(behindProxy, '/healthz', { 'x-forwarded-proto': 'https, http' })).toBeNull();
  });

  it('is not sent when a client that is not a trusted proxy claims HTTPS', async () => {
    expect(await hsts(direct, '/healthz', { 'x-forwarded-proto': 'https' })).toBeNull();
    expect(await hsts(direct, '/healthz')).toBeNull();
  });
});
