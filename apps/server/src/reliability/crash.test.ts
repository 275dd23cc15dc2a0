import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { SANDBOX_SIGNATURE_HEADER, signSandbox } from '../modules/payments/gateways/sandbox.gateway.js';
import { adminDatabase } from '../test/admin-cli.js';
import { seedCatalog } from '../test/catalog.js';
import { httpClient } from '../test/http-client.js';
import { NODE_SPECS } from '../test/node-specs.js';
import { freePort, type ServerProcess, spawnServer, until, whenHealthy } from '../test/server-process.js';
import { agent, type Customer, customerWithPackage, NODE_NAMES } from '../test/subscription.js';
import { DATABASES, startTestApp } from '../test/test-app.js';

const SECRET = 'sandbox-secret-for-the-crash';
const CUSTOMERS = 6;
/** Each pushing node has a rate of its own, so that a push counted at the wrong rate shows. */
const NODE_RATES = [1, 1.5, 2];
/** The burst runs until this much is acknowledged, then the server is killed with requests in flight. */
const ACKED_BEFORE_KILL = { payments: 2 * CUSTOMERS, pushes: 24 };

/** Where a request stands: in flight, answered, never connected (so never applied), or cut off with no answer. */
type Fate = 'pending' | 'acked' | 'refused' | 'unknown';

/** Sends a request and notes its fate on `item`; the answer when there is one. */
async function attempt<T>(item: { fate: Fate }, request: Promise<T>): Promise<T | undefined> {
  try {
    const answer = await request;
    item.fate = 'acked';
    return answer;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    item.fate = cause?.code === 'ECONNREFUSED' ? 'refused' : 'unknown';
    return undefined;
  }
}

type Notification = { eventId: string; orderNo: string; outcome: 'success' };
/** One node's traffic report: each customer's [upload, download] as sent, before the node's rate. */
type Push = { node: number; report: Record<string, [number, number]>; fate: Fate };

describe.each(DATABASES)('a crash under load on %s', (database) => {
  let dir: string;
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  let running: ServerProcess | undefined;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-crash-'));
    db = await adminDatabase(database);
  });
  afterAll(async () => {
    running?.child.kill('SIGKILL');
    await running?.exited;
    await db?.drop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged order, payment or push, and applies none twice', { timeout: 60_000 }, async () => {
    // The shop, the customers (each with a running package, so that their traffic counts) and the nodes, set up
    // through the services on the database the server process will use.
    const seeding = await startTestApp({ env: { DATABASE_URL: db.url } });
    const { monthly } = await seedCatalog(seeding);
    const customers: Customer[] = await Promise.all(
      Array.from({ length: CUSTOMERS }, (_, i) => customerWithPackage(seeding, `crash${i}@example.com`, monthly)),
    );
    const nodes = await Promise.all(
      NODE_RATES.map(async (rate, i) => {
        const { name, ...spec } = NODE_SPECS[i]!;
        const input = { ...spec, names: NODE_NAMES(name), labels: [], host: 'node.example.com', visible: true, rate };
        return { ...(await seeding.app.nodes.add(input)), protocol: spec.protocol, rate };
      }),
    );
    await seeding.close();

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const start = async () => {
      running = spawnServer(dir, {
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: db.url,
        MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
        WEB_DIST_DIR: path.join(dir, 'web'),
        TRUST_PROXY: 'true',
        PAYMENT_SANDBOX_SECRET: SECRET,
        LOG_LEVEL: 'warn',
      });
      await whenHealthy(running, url);
      return running;
    };
    const notify = ({ eventId, orderNo, outcome }: Notification) => {
      const raw = JSON.stringify({ eventId, orderNo, outcome });
      return httpClient(url).post('/payment/notify/sandbox', {
        raw: { body: raw, type: 'application/json' },
        headers: { [SANDBOX_SIGNATURE_HEADER]: signSandbox(SECRET, raw) },
      });
    };

    const first = await start();

    // The burst: each customer orders and pays in a loop; each node pushes every customer's traffic in a loop. Every
    // worker stops at its first request that gets no answer.
    const orders: Array<{ no?: string; userId: number; fate: Fate }> = [];
    const payments: Array<Notification & { fate: Fate }> = [];
    const pushes: Push[] = [];
    let eventSeq = 0;
    let pushSeq = 0;

    const buyer = async (customer: Customer) => {
      const api = httpClient(url);
      for (;;) {
        const order: (typeof orders)[number] = { userId: customer.id, fate: 'pending' };
        orders.push(order);
        const created = await attempt(
          order,
          api.post('/mutenet/user/order/create', {
            form: { pkgId: String(monthly), currency: 'USD', force: '1' },
            token: customer.token,
          }),
        );
        if (!created) return;
        expect(created.body.code).toBe(0);
        order.no = created.body.data.orderNo as string;
        const payment = {
          eventId: `crash-${++eventSeq}`,
          orderNo: order.no,
          outcome: 'success' as const,
          fate: 'pending' as Fate,
        };
        payments.push(payment);
        const paid = await attempt(payment, notify(payment));
        if (!paid) return;
        expect(paid.body.data).toEqual({ status: 'success', duplicate: false, applied: true });
      }
    };

    const pusher = async (node: (typeof nodes)[number], index: number) => {
      const agentApi = agent({ url }, node);
      for (;;) {
        // Every amount is unique to its push and customer, and even (so that a rate of 1.5 counts it exactly).
        const seq = ++pushSeq;
        const report = Object.fromEntries(
          customers.map((customer, j): [string, [number, number]] => [
            String(customer.id),
            [2 * (seq * 64 + j + 1), 4 * seq],
          ]),
        );
        const push: Push = { node: index, report, fate: 'pending' };
        pushes.push(push);
        const answer = await attempt(push, agentApi.push(report));
        if (!answer) return;
        expect(answer.status).toBe(200);
      }
    };

    const workers = [...customers.map(buyer), ...nodes.map(pusher)];
    const acked = <T extends { fate: Fate }>(items: T[]) => items.filter((item) => item.fate === 'acked');
    await until(
      () =>
        acked(payments).length >= ACKED_BEFORE_KILL.payments && acked(pushes).length >= ACKED_BEFORE_KILL.pushes
          ? true
          : undefined,
      'the burst to be under way',
    );
    first.child.kill('SIGKILL');
    await Promise.all(workers);
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');
    // Requests were cut off mid-flight, or the kill proved nothing.
    expect([...orders, ...payments, ...pushes].some((item) => item.fate === 'unknown')).toBe(true);

    await start();
    const handle = openDatabase(db.url);
    try {
      const orderState = async () =>
        handle.db
          .selectFrom('orders')
          .leftJoin('user_packages', 'user_packages.order_id', 'orders.id')
          .select(['orders.no', 'orders.user_id', 'orders.status'])
          .select((eb) => [
            eb.fn.count<number>('user_packages.id').as('packages'),
            eb
              .selectFrom('payment_events')
              .whereRef('payment_events.order_id', '=', 'orders.id')
              .select((inner) => inner.fn.countAll<number>().as('n'))
              .as('events'),
          ])
          .groupBy(['orders.id', 'orders.no', 'orders.user_id', 'orders.status'])
          .orderBy('orders.id')
          .execute()
          .then((rows) => rows.map((row) => ({ ...row, packages: Number(row.packages), events: Number(row.events) })));

      // Every acknowledged order is there, for its customer.
      const before = await orderState();
      const byNo = new Map(before.map((row) => [row.no, row]));
      for (const order of acked(orders)) expect(byNo.get(order.no!)?.user_id).toBe(order.userId);
      // Every acknowledged payment left its order paid, with one package and one event.
      for (const payment of acked(payments)) {
        expect(byNo.get(payment.orderNo)).toMatchObject({ status: 'success', packages: 1, events: 1 });
      }
      // No order anywhere has a package it was not paid for, or two.
      expect(before.filter((row) => row.packages !== (row.status === 'success' ? 1 : 0))).toEqual([]);

      // The gateway sends its notifications again: the acknowledged ones change nothing.
      for (const payment of acked(payments)) {
        const { body } = await notify(payment);
        expect(body.data).toEqual({ status: 'success', duplicate: true, applied: false });
      }
      expect(await orderState()).toEqual(before);
      // The ones cut off are applied now if they were not before, and still once.
      const cutOff = payments.filter((payment) => payment.fate !== 'acked');
      for (const payment of cutOff) {
        const { body } = await notify(payment);
        expect(body.data.status).toBe('success');
        expect(body.data.duplicate).toBe(body.data.applied === false);
      }
      const after = new Map((await orderState()).map((row) => [row.no, row]));
      for (const payment of cutOff) {
        expect(after.get(payment.orderNo)).toMatchObject({ status: 'success', packages: 1, events: 1 });
      }

      // Traffic: each customer's totals are the acknowledged pushes times their node's rate, plus those cut-off
      // pushes that made it, each whole or not at all (the same choice for every customer).
      const totals = await handle.db
        .selectFrom('user_packages')
        .select(['user_id'])
        .select((eb) => [eb.fn.sum<number>('upload_used').as('up'), eb.fn.sum<number>('download_used').as('down')])
        .groupBy('user_id')
        .execute();
      const counted = new Map(totals.map((row) => [Number(row.user_id), [Number(row.up), Number(row.down)]]));
      const sumOf = (list: Push[], userId: number) =>
        list.reduce(
          (sum, push) => {
            const [up, down] = push.report[String(userId)]!;
            const rate = NODE_RATES[push.node]!;
            return [sum[0]! + up * rate, sum[1]! + down * rate];
          },
          [0, 0],
        );
      const uncertain = pushes.filter((push) => push.fate === 'unknown');
      const landed = Array.from({ length: 2 ** uncertain.length }, (_, mask) =>
        uncertain.filter((_, i) => mask & (1 << i)),
      ).filter((subset) =>
        customers.every((customer) => {
          const expected = sumOf([...acked(pushes), ...subset], customer.id);
          return JSON.stringify(counted.get(customer.id)) === JSON.stringify(expected);
        }),
      );
      expect(landed, `totals ${JSON.stringify(customers.map((customer) => counted.get(customer.id)))}`).toHaveLength(1);
    } finally {
      await handle.db.destroy();
    }
  });
});
