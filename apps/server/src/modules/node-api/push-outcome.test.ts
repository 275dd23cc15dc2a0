import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../test/catalog.js';
import type { CallResult } from '../../test/http-client.js';
import { until } from '../../test/server-process.js';
import { addNodes, agent, type Customer, customerWithPackage } from '../../test/subscription.js';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.js';
import { POSTGRES_URL, startTestApp, type TestApp, withPostgres } from '../../test/test-app.js';

/**
 * A traffic push whose PostgreSQL connection falls silent in its transaction (a database host lost behind a
 * firewall), at each point: after BEGIN, and after COMMIT was sent, its answer lost. The agent sends again, as V2bX
 * does, a push not answered 200: whatever the cut, the traffic is counted exactly once.
 */
describe.runIf(POSTGRES_URL)('a traffic push cut off in its transaction', () => {
  let proxy: TcpProxy;
  let app: TestApp;
  let node: Awaited<ReturnType<typeof addNodes>>[number];
  let seq = 0;
  let newCustomer: () => Promise<Customer>;

  beforeAll(async () => {
    const { hostname, port } = new URL(POSTGRES_URL!);
    proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    app = await startTestApp({
      database: 'postgres',
      env: { DATABASE_URL: proxy.urlFor(POSTGRES_URL!), DATABASE_QUERY_TIMEOUT_SECONDS: '1' },
    });
    const { traffic30 } = await seedCatalog(app);
    node = (await addNodes(app)).find((candidate) => candidate.rate === 1)!;
    newCustomer = () => customerWithPackage(app, `cut${++seq}.push@example.com`, traffic30);
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
  });

  /** The customer's counted bytes, read past the proxy, straight from PostgreSQL. */
  const used = (customer: Customer) =>
    withPostgres(async (client) => {
      const { rows } = await client.query<{ up: string; down: string }>(
        `select upload_used as up, download_used as down from ${app.installation.schema}.user_packages
          where user_id = $1`,
        [customer.id],
      );
      return rows.map((row) => [Number(row.up), Number(row.down)]);
    });

  /** An outage's answer: 503 in the envelope (in the agent's default language), and when to try again. */
  const expectUnavailable = (answer: CallResult) => {
    expect({ status: answer.status, code: answer.body.code, data: answer.body.data }).toEqual({
      status: 503,
      code: 503,
      data: null,
    });
    expect(Object.values(MESSAGES.SERVICE_UNAVAILABLE)).toContain(answer.body.msg);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  };

  const push = (customer: Customer) => agent(app, node).push({ [customer.id]: [1000, 3000] });

  it('answers 503 when the connection falls silent after BEGIN, and counts the resend once', async () => {
    const customer = await newCustomer();
    // The statement that counts the traffic, after BEGIN was answered: the transaction is left open on a dead line.
    const cut = proxy.silenceAt('update', 'before');
    expectUnavailable(await push(customer));
    await cut;
    expect(await used(customer)).toEqual([[0, 0]]);
    expect((await push(customer)).body).toEqual({ data: true });
    expect(await used(customer)).toEqual([[1000, 3000]]);
    expect(app.logs.join('')).not.toContain('unhandled error');
  });

  it('answers 200 when the answer to COMMIT is lost but the push was counted, so that it is not sent again', async () => {
    const customer = await newCustomer();
    const cut = proxy.silenceAt('commit', 'after');
    const answer = await push(customer);
    await cut;
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { data: true } });
    expect(await used(customer)).toEqual([[1000, 3000]]);
    expect(app.logs.join('')).not.toContain('unhandled error');
  });

  it('answers 503 when neither the COMMIT nor the database can answer, and counts the resend of that push once', async () => {
    const customer = await newCustomer();
    const cut = proxy.silenceAt('commit', 'after');
    const answered = push(customer);
    await cut;
    // Committed, as PostgreSQL itself says; then the database is lost altogether before the app can ask.
    await until(async () => ((await used(customer))[0]?.[0] === 1000 ? true : undefined), 'the commit');
    await proxy.cut('refuse');
    expectUnavailable(await answered);
    await proxy.restore();
    const served = () => app.app.db.selectFrom('nodes').select('id').execute();
    await until(
      () =>
        served().then(
          () => true,
          () => undefined,
        ),
      'the database to be reached again',
    );
    expect((await push(customer)).body).toEqual({ data: true });
    expect(await used(customer)).toEqual([[1000, 3000]]);
    // A new push of the same traffic, answered, is new traffic.
    expect((await push(customer)).body).toEqual({ data: true });
    expect(await used(customer)).toEqual([[2000, 6000]]);
    expect(app.logs.join('')).not.toContain('unhandled error');
  });
});
