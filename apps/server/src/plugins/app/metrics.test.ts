import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { httpClient } from '../../test/http-client.js';
import { parseExposition, sampleValue } from '../../test/metrics.js';
import { addNodes, agent, customerWithPackage } from '../../test/subscription.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { loadConfig } from '../external/env.js';

describe.each(DATABASES)('metrics on %s', (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let seq = 0;

  async function scrape() {
    const { status, headers, text } = await httpClient(app.url).get('/metrics');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return { text, metrics: parseExposition(text) };
  }

  beforeAll(async () => {
    app = await startTestApp({ database });
    seeded = await seedCatalog(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves every metric with HELP and TYPE, and counts requests by route and status', async () => {
    const before = (await scrape()).metrics;
    for (const [name, type] of [
      ['mutenet_http_requests_total', 'counter'],
      ['mutenet_http_request_duration_seconds', 'histogram'],
      ['mutenet_orders', 'gauge'],
      ['mutenet_nodes_online', 'gauge'],
      ['mutenet_job_runs_total', 'counter'],
      ['mutenet_job_failures_total', 'counter'],
      ['mutenet_payment_notifications_total', 'counter'],
      ['mutenet_payment_reconcile_checks_total', 'counter'],
    ]) {
      expect(before.get(name!)?.type, name).toBe(type);
    }
    const api = httpClient(app.url);
    for (let i = 0; i < 3; i++) expect((await api.get('/mutenet/user/orders')).status).toBe(401);
    const after = (await scrape()).metrics;
    const labels = { method: 'GET', route: '/mutenet/user/orders', status: '401' };
    expect(sampleValue(after, 'mutenet_http_requests_total', labels)).toBe(
      sampleValue(before, 'mutenet_http_requests_total', labels) + 3,
    );
    const timed = { method: 'GET', route: '/mutenet/user/orders' };
    const family = 'mutenet_http_request_duration_seconds';
    const count = sampleValue(after, family, timed, `${family}_count`);
    expect(count).toBeGreaterThanOrEqual(3);
    expect(sampleValue(after, family, { ...timed, le: '+Inf' }, `${family}_bucket`)).toBe(count);
    // Buckets are cumulative.
    const buckets = after
      .get(family)!
      .samples.filter((s) => s.name === `${family}_bucket` && s.labels.route === timed.route);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
    // A 401 takes well under ten seconds: the last bound counts every one.
    expect(sampleValue(after, family, { ...timed, le: '10' }, `${family}_bucket`)).toBe(count);
  });

  it('labels requests with the route pattern, never the path: a subscription token never shows', async () => {
    const customer = await customerWithPackage(app, `metrics${++seq}.${database}@example.com`, seeded.traffic30);
    const { text: link } = await customer.api.get('/mutenet/user/subscribe/url', { token: customer.token });
    const token = link.split('/').at(-1)!;
    expect((await httpClient(app.url).get(new URL(link).pathname)).status).toBe(200);
    await httpClient(app.url).get(`/no/such/path/${token}`);
    const { text, metrics } = await scrape();
    expect(text).not.toContain(token);
    expect(
      sampleValue(metrics, 'mutenet_http_requests_total', { route: '/sub/:token', status: '200' }),
    ).toBeGreaterThan(0);
    expect(sampleValue(metrics, 'mutenet_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThan(
      0,
    );
  });

  it('counts orders by status as the real calls left them', async () => {
    const before = (await scrape()).metrics;
    const customer = await customerWithPackage(app, `metrics${++seq}.${database}@example.com`, seeded.traffic30);
    const placed = await customer.api.post('/mutenet/user/order/create', {
      form: { pkgId: String(seeded.monthly), currency: 'USD', force: '1' },
      token: customer.token,
    });
    expect(placed.body.code).toBe(0);
    const after = (await scrape()).metrics;
    const orders = (metrics: typeof after, status: string) => sampleValue(metrics, 'mutenet_orders', { status });
    expect(orders(after, 'success')).toBe(orders(before, 'success') + 1);
    expect(orders(after, 'waiting')).toBe(orders(before, 'waiting') + 1);
    expect(orders(after, 'refunded')).toBe(0);
    const stored = await app.app.db.selectFrom('orders').select('status').execute();
    const total = after.get('mutenet_orders')!.samples.reduce((sum, s) => sum + s.value, 0);
    expect(total).toBe(stored.length);
  });

  it('counts the visible nodes whose agent called', async () => {
    expect(sampleValue((await scrape()).metrics, 'mutenet_nodes_online', {})).toBe(0);
    const nodes = await addNodes(app);
    await agent(app, nodes[0]!).users();
    await agent(app, nodes[1]!).users();
    expect(sampleValue((await scrape()).metrics, 'mutenet_nodes_online', {})).toBe(2);
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  const TOKEN = 'metrics-secret-0123456789';
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 401 without the bearer token, and the exposition with it', async () => {
    const api = httpClient(app.url);
    expect((await api.get('/metrics')).status).toBe(401);
    expect((await api.get('/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await api.get('/metrics', { headers: { authorization: TOKEN } })).status).toBe(401);
    const ok = await api.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(parseExposition(ok.text).get('mutenet_http_requests_total')?.type).toBe('counter');
  });
});

describe('metrics collection', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('leaves out a collector that fails instead of failing the scrape', async () => {
    // Registered after start, as a later plugin would: its failure must not turn the scrape into a 500.
    app.app.metrics.gauge('test_broken', 'A collector that throws.', async () => {
      throw new Error('broken');
    });
    const { status, text } = await httpClient(app.url).get('/metrics');
    expect(status).toBe(200);
    expect(parseExposition(text).get('test_broken')?.samples).toEqual([]);
  });

  it('refuses a short METRICS_TOKEN', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  });
});
