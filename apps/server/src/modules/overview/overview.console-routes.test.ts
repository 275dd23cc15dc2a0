import { ERRORS, ORDER_STATUSES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOfUtcDays, UTC_DAY_MS } from '../../lib/utc-days.js';
import { seedCatalog } from '../../test/catalog.js';
import { operatorSession } from '../../test/operators.js';
import { newCustomerOrder } from '../../test/payments.js';
import { addNodes, agent, NODE_NAMES } from '../../test/subscription.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

describe.each(DATABASES)('the console’s overview on %s', (database) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ database });
  });
  afterAll(() => app.close());

  it('counts revenue, orders, customers, subscriptions, nodes and traffic by UTC day, exactly', {
    timeout: 120_000,
  }, async () => {
    const catalog = await seedCatalog(app);
    const nodes = await addNodes(app);
    const [busy, quiet] = [nodes[0]!, nodes[1]!];
    // Today is the UTC day the test runs on; the data is made on days before it by moving the clock.
    const today = startOfUtcDays(Date.now(), 1);
    const at = (daysAgo: number, hour: number) =>
      app.clock.advance(today - daysAgo * UTC_DAY_MS + hour * 3600_000 - app.clock.now());
    const paid = async (email: string, pkgId: number, currency: string) => {
      const order = await newCustomerOrder(app, { email: `${email}.${database}@example.com`, pkgId, currency });
      const approved = await order.api.post(`/payment/sandbox/${order.no}/approve`, { token: order.token });
      expect(approved.body).toMatchObject({ code: 0, data: { status: 'success' } });
      return order;
    };

    at(40, 12); // Outside every window: its package has ended, its traffic is not counted.
    const old = await paid('old', catalog.traffic30, 'USD');
    await agent(app, quiet).push({ [old.order.user_id]: [7, 7] });

    at(20, 12);
    const b = await paid('b', catalog.monthly, 'USD');
    const c = await paid('c', catalog.traffic30, 'BRL');
    expect((await app.app.payments.refund(c.no))?.status).toBe('refunded');
    await agent(app, busy).push({ [b.order.user_id]: [10, 20] });

    at(3, 23);
    const d = await paid('d', catalog.other90, 'BRL');
    await agent(app, quiet).push({ [d.order.user_id]: [300, 400] });
    await agent(app, busy).push({ [b.order.user_id]: [1, 2], [d.order.user_id]: [3, 4] });

    at(0, 1);
    const e = await paid('e', catalog.traffic30, 'USD');
    const waiting = await e.api.post('/mutenet/user/order/create', {
      form: { pkgId: String(catalog.monthly), currency: 'USD', force: '1' },
      token: e.token,
    });
    expect(waiting.body.code).toBe(0);
    // Two equal pushes a minute apart are both traffic.
    await agent(app, busy).push({ [e.order.user_id]: [5, 6] });
    app.clock.advance(60_000);
    expect((await agent(app, busy).push({ [e.order.user_id]: [5, 6] })).status).toBe(200);

    const manager = await operatorSession(app, `manager.overview.${database}@example.com`, 'manager');
    // Node names in the request's language.
    const { body } = await manager.client.get('/api/overview', { 'accept-language': 'zh-Hans' });
    expect(body.code).toBe(0);
    const overview = body.data;

    expect(overview.revenue).toEqual([
      { currency: 'BRL', today: '0.00', days7: '79.90', days30: '79.90' },
      { currency: 'USD', today: '4.99', days7: '4.99', days30: '10.98' },
    ]);
    expect(overview.ordersByStatus).toEqual({
      ...Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])),
      success: 3,
      refunded: 1,
      waiting: 1,
    });
    expect(overview.newCustomers).toEqual({ today: 1, days7: 2, days30: 4 });
    expect(overview.runningSubscriptions).toBe(3);
    expect(overview.nodes).toEqual({ online: 1, offline: nodes.length - 1 });

    expect(overview.trafficByDay).toHaveLength(30);
    expect(overview.trafficByDay[0].day).toBe(today - 29 * UTC_DAY_MS);
    const traffic = Object.fromEntries(
      overview.trafficByDay
        .filter((day: { upload: number; download: number }) => day.upload + day.download > 0)
        .map((day: { day: number; upload: number; download: number }) => [
          (today - day.day) / UTC_DAY_MS,
          [day.upload, day.download],
        ]),
    );
    expect(traffic).toEqual({ 20: [10, 20], 3: [304, 406], 0: [10, 12] });
    expect(overview.trafficByNode).toEqual([
      { nodeId: quiet.id, name: NODE_NAMES(quiet.name)['zh-Hans'], upload: 300, download: 400 },
      { nodeId: busy.id, name: NODE_NAMES(busy.name)['zh-Hans'], upload: 24, download: 38 },
    ]);
  });

  it('is for owners and managers only', { timeout: 60_000 }, async () => {
    const support = await operatorSession(app, `support.overview.${database}@example.com`, 'support');
    const refused = await support.client.get('/api/overview');
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: ERRORS.FORBIDDEN.code });
    const owner = await operatorSession(app, `owner.overview.${database}@example.com`, 'owner');
    expect((await owner.client.get('/api/overview')).body.code).toBe(0);
  });
});
