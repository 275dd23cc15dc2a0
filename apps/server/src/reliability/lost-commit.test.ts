import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SIGNATURE_HEADER, signSandbox } from '../modules/payments/gateways/sandbox.gateway.js';
import { signUp } from '../test/accounts.js';
import { type SeededCatalog, seedCatalog } from '../test/catalog.js';
import { httpClient } from '../test/http-client.js';
import { majorAmount, paymentState } from '../test/payments.js';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.js';
import { POSTGRES_URL, startTestApp, type TestApp } from '../test/test-app.js';

const SECRET = 'sandbox-secret-for-tests';

/**
 * A payment notification whose PostgreSQL connection falls silent in its transaction (a database host lost behind a
 * firewall), at each point: after BEGIN, and after COMMIT was sent, its answer lost. Each answers 503 with
 * `Retry-After`, as any outage does, and the gateway's retry of the same event is then applied once.
 */
describe.runIf(POSTGRES_URL)('a payment notification cut off in its transaction', () => {
  let proxy: TcpProxy;
  let app: TestApp;
  let seeded: SeededCatalog;
  let seq = 0;

  beforeAll(async () => {
    const { hostname, port } = new URL(POSTGRES_URL!);
    proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    app = await startTestApp({
      database: 'postgres',
      env: {
        DATABASE_URL: proxy.urlFor(POSTGRES_URL!),
        DATABASE_QUERY_TIMEOUT_SECONDS: '1',
        PAYMENT_SANDBOX_SECRET: SECRET,
      },
    });
    seeded = await seedCatalog(app);
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
  });

  /** A new customer's order, and the gateway's notification that it was paid. */
  async function paidNotification() {
    const api = httpClient(app.url, { language: 'en' });
    const token = await signUp(app, api, `cut${++seq}@example.com`);
    const { body } = await api.post('/mutenet/user/order/create', {
      form: { pkgId: String(seeded.traffic30), currency: 'USD' },
      token,
    });
    const order = await app.app.db
      .selectFrom('orders')
      .select(['id', 'no', 'amount_minor', 'decimals'])
      .where('no', '=', body.data.orderNo)
      .executeTakeFirstOrThrow();
    const raw = JSON.stringify({
      eventId: `evt-${seq}`,
      orderNo: order.no,
      outcome: 'success',
      amount: majorAmount(order),
      currency: 'USD',
    });
    const send = () =>
      httpClient(app.url, { language: 'en' }).post('/payment/notify/sandbox', {
        raw: { body: raw, type: 'application/json' },
        headers: { [SANDBOX_SIGNATURE_HEADER]: signSandbox(SECRET, raw) },
      });
    return { orderId: order.id, send };
  }

  const state = (orderId: number) => paymentState(app, orderId);

  const expectUnavailable = (answer: Awaited<ReturnType<ReturnType<typeof httpClient>['post']>>) => {
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 503,
      body: { code: 503, msg: MESSAGES.SERVICE_UNAVAILABLE.en, data: null },
    });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  };

  it('answers 503 when the connection falls silent after BEGIN, and applies the retry', async () => {
    const { orderId, send } = await paidNotification();
    const cut = proxy.silenceAt('insert into "payment_events"', 'before');
    expectUnavailable(await send());
    await cut;
    expect(await state(orderId)).toEqual({ status: 'waiting', packages: 0, events: 0 });
    expect((await send()).body).toMatchObject({ code: 0, data: { status: 'success', applied: true } });
    expect(await state(orderId)).toEqual({ status: 'success', packages: 1, events: 1 });
    expect(app.logs.join('')).not.toContain('unhandled error');
  });

  it('answers 503 when the answer to COMMIT is lost, and acknowledges the retry as done, applied once', async () => {
    const { orderId, send } = await paidNotification();
    const usersVersion = await app.app.subscriptions.usersVersion();
    const cut = proxy.silenceAt('commit', 'after');
    expectUnavailable(await send());
    await cut;
    // The first delivery was committed: its retry is a replay, and changes nothing.
    expect(await state(orderId)).toEqual({ status: 'success', packages: 1, events: 1 });
    expect((await send()).body).toMatchObject({ code: 0, data: { status: 'success', duplicate: true } });
    expect(await state(orderId)).toEqual({ status: 'success', packages: 1, events: 1 });
    // The nodes learn of the new package all the same: the replay marks the users they serve as changed.
    expect(await app.app.subscriptions.usersVersion()).not.toBe(usersVersion);
    expect(app.logs.join('')).not.toContain('unhandled error');
  });
});
