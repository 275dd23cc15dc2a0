import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GIB } from '../../lib/units.js';
import { login } from '../../test/accounts.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { holdCustomer, settlesWithin } from '../../test/hold-customer.js';
import { httpClient } from '../../test/http-client.js';
import { rawRequest } from '../../test/raw-request.js';
import { addNodes, agent, type Customer, customerWithPackage } from '../../test/subscription.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

const DAY = 24 * 3600_000;

describe.each(DATABASES)('node API on %s', (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let nodes: Awaited<ReturnType<typeof addNodes>>;
  let seq = 0;
  const newCustomer = (pkgId: number | null) => customerWithPackage(app, `node${++seq}.${database}@example.com`, pkgId);
  const listed = async (node = nodes[0]!) => {
    const { body } = await agent(app, node).users();
    return (body.users as Array<{ id: number; uuid: string }>).map((user) => user.id);
  };
  const usedBy = async (customer: Customer) =>
    app.app.db
      .selectFrom('user_packages')
      .select(['upload_used', 'download_used', 'traffic_used', 'ends_at', 'starts_at'])
      .where('user_id', '=', customer.id)
      .orderBy('starts_at')
      .execute();

  beforeAll(async () => {
    app = await startTestApp({ database });
    seeded = await seedCatalog(app);
    nodes = await addNodes(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("refuses a missing, wrong or shared token, another node's token, an unknown node and a wrong type", async () => {
    const api = httpClient(app.url);
    const [first, second] = nodes;
    const cases = [
      `node_id=${first!.id}&node_type=vless`,
      `node_id=${first!.id}&node_type=vless&token=wrong`,
      `node_id=${second!.id}&node_type=vmess&token=${first!.token}`,
      `node_id=999999&node_type=vless&token=${first!.token}`,
      `node_id=${first!.id}&node_type=vmess&token=${first!.token}`,
      `node_id=abc&node_type=vless&token=${first!.token}`,
    ];
    for (const query of cases) {
      for (const path of ['config', 'user', 'alivelist']) {
        const { status, body } = await api.get(`/api/v1/server/UniProxy/${path}?${query}`);
        expect(status, `${path}?${query}`).toBe(403);
        expect(JSON.stringify(body)).not.toContain('uuid');
      }
      expect((await api.post(`/api/v1/server/UniProxy/push?${query}`, { json: {} })).status).toBe(403);
    }
    const byHeader = await api.get(`/api/v1/server/UniProxy/config?node_id=${first!.id}`, {
      headers: { 'x-api-key': first!.token },
    });
    expect(byHeader.status).toBe(200);
  });

  it('refuses a token sent under any name but token= or X-API-Key, and never writes it to the log', async () => {
    const node = nodes[2]!;
    const { token } = node;
    const known = `node_id=${node.id}&node_type=${node.protocol}`;
    const queries = [
      `${known}&%74oken=${token}`,
      `${known}&%2574oken=${token}`,
      `${known}&token[]=${token}`,
      `${known}&token%5B%5D=${token}`,
      `${known}&TOKEN=${token}`,
      `${known}&;token=${token}`,
      `${known};token=${token}`,
      `;token=${token}&${known}`,
      // Beside the right token, a second one under another name is refused all the same.
      `${known}&token=${token}&%74oken=${token}`,
    ];
    for (const query of queries) {
      for (const path of ['config', 'user', 'alivelist']) {
        const answer = await rawRequest(app.url, { method: 'GET', path: `/api/v1/server/UniProxy/${path}?${query}` });
        expect(answer.status, `${path}?${query}`).toBe(403);
      }
      const push = await rawRequest(app.url, {
        method: 'POST',
        path: `/api/v1/server/UniProxy/push?${query}`,
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(push.status, `push?${query}`).toBe(403);
    }
    const plain = await rawRequest(app.url, {
      method: 'GET',
      path: `/api/v1/server/UniProxy/config?${known}&token=${token}`,
    });
    expect(plain.status).toBe(200);
    await vi.waitFor(() => expect(app.logs.join('')).toContain('%74oken=[redacted]'));
    expect(app.logs.join('')).not.toContain(token);
  });

  it("serves each node its configuration in V2bX's shapes, with an ETag and 304", async () => {
    for (const node of nodes) {
      const response = await agent(app, node).config();
      expect(response.status).toBe(200);
      const body = response.body;
      expect(response.headers.get('etag')).toBe(`"${createHash('sha1').update(response.text).digest('hex')}"`);
      expect(body).toMatchObject({
        server_port: expect.any(Number),
        base_config: { push_interval: 60, pull_interval: 60 },
      });
      expect((await agent(app, node).config(response.headers.get('etag')!)).status).toBe(304);
      if (node.protocol === 'vless') {
        expect(body).toMatchObject({
          network: 'tcp',
          tls: 2,
          flow: 'xtls-rprx-vision',
          tls_settings: { server_name: 'www.microsoft.com', server_port: '443', short_id: '6ba85179e30d4fc2' },
        });
        expect(typeof body.tls_settings.private_key).toBe('string');
      }
      if (node.protocol === 'vmess')
        expect(body).toMatchObject({
          network: 'ws',
          tls: 1,
          networkSettings: { path: '/ws', headers: { Host: 'cdn.example.com' } },
        });
      if (node.protocol === 'shadowsocks') {
        expect(body.cipher).toBe('2022-blake3-aes-128-gcm');
        expect(Buffer.from(body.server_key, 'base64')).toHaveLength(16);
      }
      if (node.protocol === 'hysteria2')
        expect(body).toMatchObject({ obfs: 'salamander', 'obfs-password': 'obfs-secret', up_mbps: 0 });
      if (node.protocol === 'tuic')
        expect(body).toMatchObject({ congestion_control: 'bbr', zero_rtt_handshake: false });
    }
  });

  it('lists exactly the users with a usable package, with integer ids, and answers 304 without reading users', async () => {
    const buyer = await newCustomer(seeded.traffic30);
    const idle = await newCustomer(null);
    const first = await agent(app, nodes[0]!).users();
    expect(first.status).toBe(200);
    const users = first.body.users as Array<Record<string, unknown>>;
    const entry = users.find((user) => user.id === buyer.id);
    const uuid = (
      await app.app.db.selectFrom('users').select('uuid').where('id', '=', buyer.id).executeTakeFirstOrThrow()
    ).uuid;
    expect(entry).toEqual({ id: buyer.id, uuid, speed_limit: 0, device_limit: 0 });
    expect(users.every((user) => Number.isInteger(user.id))).toBe(true);
    expect(users.map((user) => user.id)).not.toContain(idle.id);

    expect(first.headers.get('content-encoding')).toBe('gzip');
    const identity = await httpClient(app.url).get(
      `/api/v1/server/UniProxy/user?node_id=${nodes[0]!.id}&node_type=vless&token=${nodes[0]!.token}`,
      { headers: { 'accept-encoding': 'identity' } },
    );
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(identity.body).toEqual(first.body);
    expect(identity.headers.get('etag')).toBe(first.headers.get('etag'));

    const etag = first.headers.get('etag')!;
    const reads = vi.spyOn(app.app.subscriptions, 'usableUsers');
    try {
      const again = await agent(app, nodes[1]!).users(etag);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });

  it("counts pushed traffic times the node's rate, once per push", async () => {
    const buyer = await newCustomer(seeded.traffic30);
    const reality = nodes.find((node) => node.protocol === 'vless')!;
    const trojan = nodes.find((node) => node.protocol === 'trojan')!;
    expect((await agent(app, reality).push({ [buyer.id]: [1000, 3000] })).body).toEqual({ data: true });
    await agent(app, trojan).push({ [buyer.id]: [10, 20] });
    const [pkg] = await usedBy(buyer);
    expect(pkg).toMatchObject({ upload_used: 1500 + 10, download_used: 4500 + 20, traffic_used: 6000 + 30 });
  });

  it('adds up concurrent pushes from 10 nodes exactly', async () => {
    const buyers = await Promise.all(
      [seeded.traffic30, seeded.traffic30, seeded.traffic30].map((pkg) => newCustomer(pkg)),
    );
    const extra = [];
    for (let i = 0; i < 4; i++) {
      extra.push(
        await app.app.nodes.add({
          names: { en: `Extra ${i}`, 'pt-BR': `Extra ${i}`, 'zh-Hans': `Extra ${i}` },
          labels: [],
          rate: 1,
          protocol: 'trojan',
          host: 'x.example.com',
          port: 443,
          settings: { network: 'tcp', tls: 'tls' },
        }),
      );
    }
    const pushers = [...nodes, ...extra.map((node) => ({ ...node, protocol: 'trojan', rate: 1 }))].slice(0, 10);
    expect(pushers).toHaveLength(10);
    const rounds = 5;
    await Promise.all(
      pushers.flatMap((node) =>
        Array.from({ length: rounds }, () =>
          agent(app, node).push(Object.fromEntries(buyers.map((buyer) => [buyer.id, [100, 200] as [number, number]]))),
        ),
      ),
    );
    const rates = pushers.reduce((sum, node) => sum + node.rate, 0);
    for (const buyer of buyers) {
      const [pkg] = await usedBy(buyer);
      expect(pkg!.upload_used).toBe(Math.round(100 * rates * rounds));
      expect(pkg!.download_used).toBe(Math.round(200 * rates * rounds));
    }
  });

  it('takes a push naming 50,000 users in one request', async () => {
    const buyers = await Promise.all([newCustomer(seeded.traffic30), newCustomer(seeded.traffic30)]);
    const traffic: Record<string, [number, number]> = {};
    for (let id = 1_000_000; id < 1_050_000 - buyers.length; id++) traffic[id] = [1, 1];
    for (const buyer of buyers) traffic[buyer.id] = [7, 9];
    const trojan = nodes.find((node) => node.protocol === 'trojan')!;
    const { status, body } = await agent(app, trojan).push(traffic);
    expect(status).toBe(200);
    expect(body).toEqual({ data: true });
    for (const buyer of buyers) expect((await usedBy(buyer))[0]).toMatchObject({ upload_used: 7, download_used: 9 });
  });

  it('drops a user whose allowance is used up at the next pull, and starts the queued package', async () => {
    const buyer = await newCustomer(seeded.traffic30);
    await buyer.buy(seeded.quarterly);
    const trojan = nodes.find((node) => node.protocol === 'trojan')!;
    expect(await listed()).toContain(buyer.id);
    await agent(app, trojan).push({ [buyer.id]: [50 * GIB, 50 * GIB] });
    const [used, next] = await usedBy(buyer);
    expect(used!.ends_at).toBeLessThanOrEqual(app.clock.now());
    expect(next!.starts_at).toBeLessThanOrEqual(app.clock.now());
    // The quarterly package now runs, so the customer stays served.
    expect(await listed()).toContain(buyer.id);
    await agent(app, trojan).push({ [buyer.id]: [100 * GIB, 100 * GIB] });
    expect(await listed()).not.toContain(buyer.id);
    const stat = await buyer.api.get('/mutenet/user/package/stat', { token: buyer.token });
    expect(stat.body.data[0]).toMatchObject({ pdName: 'Monthly', trafficTotal: 200 * GIB, trafficUsedPct: 100 });
    // A new 30-day period renews the durational allowance.
    app.clock.advance(30 * DAY + 1000);
    expect(await listed()).toContain(buyer.id);
    // Sessions last 30 days too: sign in again.
    const renewed = await buyer.api.get('/mutenet/user/package/stat', { token: await login(buyer.api, buyer.email) });
    expect(renewed.body.data[0]).toMatchObject({ trafficUsed: 0, trafficUsedPct: 0 });
  });

  // PostgreSQL only: SQLite writes one transaction at a time anyway (see holdCustomer).
  if (database === 'postgres') {
    it('moves a used-up customer on only once whoever holds them lets go', async () => {
      const buyer = await newCustomer(seeded.traffic30);
      await buyer.buy(seeded.quarterly);
      const trojan = nodes.find((node) => node.protocol === 'trojan')!;
      const hold = await holdCustomer(app, buyer.id);
      const push = agent(app, trojan).push({ [buyer.id]: [50 * GIB, 50 * GIB] });
      try {
        expect(await settlesWithin(push, 400)).toBe(false);
      } finally {
        await hold.release();
      }
      expect((await push).body).toEqual({ data: true });
      const [used, next] = await usedBy(buyer);
      expect(used!.ends_at).toBeLessThanOrEqual(app.clock.now());
      expect(next!.starts_at).toBeLessThanOrEqual(app.clock.now());
    });
  }

  it('drops a user whose package expired, with no job run', async () => {
    const buyer = await newCustomer(seeded.other90);
    expect(await listed()).toContain(buyer.id);
    app.clock.advance(90 * DAY + 1000);
    expect(await listed()).not.toContain(buyer.id);
  });

  it('counts a push however its JSON is written: spaced out, a fraction-free 1.0, a user twice (the last counts)', async () => {
    const buyer = await newCustomer(seeded.traffic30);
    const pushRaw = (body: string) =>
      httpClient(app.url).post(
        `/api/v1/server/UniProxy/push?node_id=${nodes[2]!.id}&node_type=trojan&token=${nodes[2]!.token}`,
        { raw: { body, type: 'application/json' } },
      );
    expect((await pushRaw(`\n{ "${buyer.id}" : [ 10 , 20 ] }\n`)).status).toBe(200);
    expect((await pushRaw(`{"${buyer.id}":[1.0,2e0]}`)).status).toBe(200);
    expect((await pushRaw(`{"${buyer.id}":[500,500],"${buyer.id}":[100,200]}`)).status).toBe(200);
    expect((await usedBy(buyer))[0]).toMatchObject({ upload_used: 111, download_used: 222, traffic_used: 333 });
  });

  it('refuses malformed or compressed pushes and changes nothing', async () => {
    const buyer = await newCustomer(seeded.traffic30);
    const node = agent(app, nodes[2]!);
    for (const bad of [
      [],
      { [buyer.id]: [1] },
      { [buyer.id]: [-1, 5] },
      { [buyer.id]: [1.5, 5] },
      { [buyer.id]: ['1', '5'] },
      { abc: [1, 1] },
      { [buyer.id]: [2 ** 60, 1] },
      'x',
    ]) {
      const { status } = await node.push(bad as never);
      expect(status, JSON.stringify(bad)).toBe(400);
    }
    const raw = await httpClient(app.url).post(
      `/api/v1/server/UniProxy/push?node_id=${nodes[2]!.id}&node_type=trojan&token=${nodes[2]!.token}`,
      { raw: { body: '{"1": [1, 2]', type: 'application/json' } },
    );
    expect(raw.status).toBe(400);
    // A body sent compressed is not read as JSON: no agent compresses its push.
    const gzipped = await httpClient(app.url).post(
      `/api/v1/server/UniProxy/push?node_id=${nodes[2]!.id}&node_type=trojan&token=${nodes[2]!.token}`,
      {
        raw: { body: gzipSync(JSON.stringify({ [buyer.id]: [1, 2] })), type: 'application/json' },
        headers: { 'content-encoding': 'gzip' },
      },
    );
    expect(gzipped.status).toBe(400);
    expect(gzipped.body.code).toBe(400);
    expect((await usedBy(buyer))[0]).toMatchObject({ traffic_used: 0 });
  });

  it('collects online IPs per user across nodes for device limits, and marks nodes online', async () => {
    const [first, second] = nodes;
    await agent(app, first!).alive({ '7': ['1.1.1.1', '2.2.2.2'], '8': ['3.3.3.3'] });
    await agent(app, second!).alive({ '7': ['2.2.2.2', '4.4.4.4'] });
    const { body } = await agent(app, first!).aliveList();
    expect(body.alive).toMatchObject({ '7': 3, '8': 1 });
    const customer = await newCustomer(null);
    const list = await customer.api.get('/mutenet/user/nodes', { token: customer.token });
    expect(list.body.data.find((node: { name: string }) => node.name === 'Reality')).toEqual({
      name: 'Reality',
      label: 'fast,stream',
      mag: 1.5,
      status: 'online',
    });
    app.clock.advance(5 * 60_000 + 1000);
    const later = await customer.api.get('/mutenet/user/nodes', { token: customer.token });
    expect(later.body.data.every((node: { status: string }) => node.status === 'offline')).toBe(true);
    // Back online: the answer follows the nodes each way, not only the first change.
    await agent(app, first!).alive({});
    const again = await customer.api.get('/mutenet/user/nodes', { token: customer.token });
    expect(again.body.data.find((node: { name: string }) => node.name === 'Reality')?.status).toBe('online');
  });

  it('keeps a node online while its agent calls, writing its heartbeat to the store at most once a minute', async () => {
    const node = nodes[2]!;
    const customer = await newCustomer(null);
    const statusOf = async () => {
      const { body } = await customer.api.get('/mutenet/user/nodes', { token: customer.token });
      return body.data.find((listed: { name: string }) => listed.name === node.name)?.status;
    };
    const set = vi.spyOn(app.app.store, 'set');
    try {
      // An agent pulling every 20 s for 12 minutes: 37 calls, more than twice the online window.
      for (let call = 0; call <= 36; call++) {
        await agent(app, node).users();
        expect(await statusOf()).toBe('online');
        app.clock.advance(20_000);
      }
      const heartbeats = set.mock.calls.filter(([key]) => key === `node-alive:${node.id}`).length;
      expect(heartbeats).toBeGreaterThanOrEqual(12);
      expect(heartbeats).toBeLessThanOrEqual(13);
    } finally {
      set.mockRestore();
    }
    app.clock.advance(5 * 60_000);
    expect(await statusOf()).toBe('offline');
  });
});
