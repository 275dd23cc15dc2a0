import { MESSAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../test/catalog.js';
import { httpClient } from '../../test/http-client.js';
import { NODE_SPECS } from '../../test/node-specs.js';
import { type Console, operatorSession } from '../../test/operators.js';
import { agent, type Customer, customerWithPackage, NODE_NAMES } from '../../test/subscription.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { recordSecret } from '../../test/test-log.js';

const PUBLIC_KEY = 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw';
const PRIVATE_KEY = 'SMTqxmd9bZbLaykpNiHlRxpP9Y0wGcN3K6a8ZS7G2Hk';

describe.each(DATABASES)('the console’s nodes on %s', (database) => {
  let app: TestApp;
  let manager: Console;
  let customer: Customer;
  let seq = 0;

  /** A node added through the console, with the token it was answered once. */
  async function added(body: Record<string, unknown>) {
    const answer = await manager.post('/api/nodes', {
      names: NODE_NAMES(`Node ${++seq}`),
      host: `n${seq}.example.com`,
      port: 443,
      ...body,
    });
    expect(answer.body).toMatchObject({ code: 0 });
    recordSecret('node token', answer.body.data.token);
    return answer.body.data as { node: { id: number; protocol: string }; token: string; v2bx: unknown; xrayr: unknown };
  }
  const nodeAgent = (data: { node: { id: number; protocol: string }; token: string }) =>
    agent(app, { id: data.node.id, token: data.token, protocol: data.node.protocol });
  /** The console's copy of the node table is a few seconds old at most: past it, the next read is fresh. */
  const statusPage = async () =>
    (await customer.api.get('/mutenet/user/nodes', { token: customer.token })).body.data as Array<{ name: string }>;
  const feed = async () => {
    const link = (await customer.api.get('/mutenet/user/subscribe/url', { token: customer.token })).text;
    return (await httpClient(app.url).get(new URL(link).pathname, { headers: { 'user-agent': 'clash.meta' } })).text;
  };
  const auditOf = async (nodeId: number) =>
    (await app.app.db.selectFrom('audit_log').selectAll().where('target_type', '=', 'node'))
      .execute()
      .then((rows) => rows.filter((row) => row.target_id === String(nodeId)));

  beforeAll(async () => {
    app = await startTestApp({ database, env: { PUBLIC_URL: 'https://panel.example.com' } });
    const seeded = await seedCatalog(app);
    customer = await customerWithPackage(app, `nodes.${database}@example.com`, seeded.traffic30);
    manager = (await operatorSession(app, `manager.nodes.${database}@example.com`, 'manager')).client;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('adds a node of each protocol with only its settings, shown on the status page and in the feeds', async () => {
    for (const spec of NODE_SPECS) {
      const { name, settings, ...rest } = spec;
      const data = await added({ ...rest, names: NODE_NAMES(name), settings });
      expect(data.node).toMatchObject({ protocol: spec.protocol, visible: true, online: false, onlineUsers: 0 });
      // The keys only the node needs are never shown.
      expect(JSON.stringify(data.node)).not.toContain(PRIVATE_KEY);
      expect(data.v2bx).toMatchObject({
        ApiHost: 'https://panel.example.com',
        ApiKey: data.token,
        NodeID: data.node.id,
      });
      if (spec.protocol === 'hysteria2' || spec.protocol === 'tuic') expect(data.xrayr).toBeNull();
      else expect(data.xrayr).toMatchObject({ ApiConfig: { ApiKey: data.token, NodeID: data.node.id } });
    }
    app.clock.advance(6000);
    const names = (await statusPage()).map((node) => node.name);
    const body = await feed();
    for (const spec of NODE_SPECS) {
      expect(names).toContain(spec.name);
      expect(body).toContain(spec.name);
    }
  });

  it('refuses a setting the protocol does not take, naming it in the operator’s language', async () => {
    const count = (await manager.get('/api/nodes')).body.data.nodes.length;
    const refused = await manager.post(
      '/api/nodes',
      {
        names: NODE_NAMES('Wrong'),
        protocol: 'shadowsocks',
        host: 'ss.example.com',
        port: 8388,
        settings: { cipher: 'aes-128-gcm', flow: 'xtls-rprx-vision' },
      },
      { 'accept-language': 'pt-BR' },
    );
    expect(refused.body).toMatchObject({
      code: 6101,
      msg: MESSAGES.NODE_SETTING_INVALID['pt-BR'],
      data: { field: 'flow', reason: 'flow applies only to vless nodes, not shadowsocks' },
    });
    const missing = await manager.post('/api/nodes', {
      names: NODE_NAMES('No cipher'),
      protocol: 'shadowsocks',
      host: 'ss.example.com',
      port: 8388,
    });
    expect(missing.body).toMatchObject({ code: 6101, data: { field: 'cipher' } });
    const reality = await manager.post('/api/nodes', {
      names: NODE_NAMES('Half reality'),
      protocol: 'vless',
      host: 'r.example.com',
      port: 443,
      settings: { tls: 'reality', realityPublicKey: PUBLIC_KEY },
    });
    expect(reality.body).toMatchObject({ code: 6101, data: { field: 'realityPrivateKey' } });
    expect((await manager.get('/api/nodes')).body.data.nodes).toHaveLength(count);
  });

  it('answers bad input with a clear error, never a 500', async () => {
    const bad = [
      { names: NODE_NAMES('X'), protocol: 'wireguard', host: 'x.example.com', port: 1 },
      { names: NODE_NAMES('X'), protocol: 'trojan', host: 'not a host', port: 443 },
      { names: NODE_NAMES('X'), protocol: 'trojan', host: 'x.example.com', port: 70_000 },
      { names: NODE_NAMES('X'), protocol: 'trojan', host: 'x.example.com', port: 443, rate: 0 },
      { names: NODE_NAMES('X'), protocol: 'trojan', host: 'x.example.com', port: 443, token: 'mine' },
      { names: NODE_NAMES('X'), protocol: 'vless', host: 'x.example.com', port: 443, settings: { sni: '../' } },
      { names: { en: '', 'pt-BR': '', 'zh-Hans': '' }, protocol: 'trojan', host: 'x.example.com', port: 443 },
    ];
    for (const body of bad) {
      const answer = await manager.post('/api/nodes', body);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.code).not.toBe(0);
    }
    for (const path of ['/api/nodes/abc', '/api/nodes/0', '/api/nodes/99999999999']) {
      const answer = await manager.put(path, { port: 80 });
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.code).not.toBe(0);
    }
    expect((await manager.put('/api/nodes/999999', { port: 80 })).body.code).toBe(404);
    expect((await manager.post('/api/nodes/999999/token')).body.code).toBe(404);
    expect((await manager.delete('/api/nodes/999999')).body.code).toBe(404);
  });

  it('updates a node, dropping the settings that no longer apply, and records before and after', async () => {
    const data = await added({
      protocol: 'vmess',
      settings: { network: 'ws', path: '/ws', tls: 'tls', sni: 'a.example.com' },
    });
    const id = data.node.id;
    const updated = await manager.put(`/api/nodes/${id}`, {
      port: 8443,
      settings: { network: 'grpc', serviceName: 'svc' },
    });
    expect(updated.body).toMatchObject({ code: 0, data: { id, port: 8443 } });
    expect(updated.body.data.settings).toEqual({
      network: 'grpc',
      serviceName: 'svc',
      tls: 'tls',
      sni: 'a.example.com',
    });
    // A setting of another transport is refused, and nothing changes.
    const refused = await manager.put(`/api/nodes/${id}`, { port: 1, settings: { path: '/x' } });
    expect(refused.body).toMatchObject({ code: 6101, data: { field: 'path' } });
    expect((await app.app.nodes.find(id))?.port).toBe(8443);

    const entries = await auditOf(id);
    const update = entries.find((entry) => entry.action === 'node.update');
    expect(JSON.parse(update?.before ?? 'null')).toMatchObject({ port: 443, settings: { network: 'ws', path: '/ws' } });
    expect(JSON.parse(update?.after ?? 'null')).toMatchObject({ port: 8443, settings: { network: 'grpc' } });
    expect(JSON.parse(update?.before ?? '{}')).not.toHaveProperty('host');
    expect(entries.find((entry) => entry.action === 'node.add')?.after).toContain('"protocol":"vmess"');
    expect(entries.map((entry) => `${entry.before}${entry.after}`).join()).not.toContain(data.token);
  });

  it('rotates a token: the old one refused by the node API at once, the new one served, shown once', async () => {
    const data = await added({ protocol: 'trojan' });
    expect((await nodeAgent(data).config()).status).toBe(200);
    const rotated = await manager.post(`/api/nodes/${data.node.id}/token`);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const fresh = rotated.body.data;
    recordSecret('node token', fresh.token);
    expect(fresh.token).not.toBe(data.token);
    expect(fresh.v2bx).toMatchObject({ ApiKey: fresh.token, NodeID: data.node.id, NodeType: 'trojan' });
    expect(fresh.xrayr).toMatchObject({ ApiConfig: { ApiKey: fresh.token, NodeType: 'Trojan' } });
    expect((await nodeAgent(data).config()).status).toBe(403);
    expect((await nodeAgent(fresh).config()).status).toBe(200);
    // The list never carries a token.
    expect(JSON.stringify((await manager.get('/api/nodes')).body)).not.toContain(fresh.token);

    const rotation = (await auditOf(data.node.id)).find((entry) => entry.action === 'node.rotateToken');
    expect(JSON.parse(rotation?.after ?? 'null')).toEqual({ tokenRotated: true });
    expect(`${rotation?.before}${rotation?.after}`).not.toContain(fresh.token);
  });

  it('shows a node online after its agent calls, with the users it reports online', async () => {
    const data = await added({ protocol: 'vless', settings: { tls: 'tls' } });
    const listed = async () =>
      (await manager.get('/api/nodes')).body.data.nodes.find((node: { id: number }) => node.id === data.node.id);
    expect(await listed()).toMatchObject({ online: false, onlineUsers: 0 });
    expect((await nodeAgent(data).alive({ '1': ['10.0.0.1'], '2': ['10.0.0.2', '10.0.0.3'] })).status).toBe(200);
    expect(await listed()).toMatchObject({ online: true, onlineUsers: 2 });
  });

  it('hides and shows a node on the status page and in the feeds, then removes it', async () => {
    const data = await added({ protocol: 'trojan', names: NODE_NAMES('Hide me') });
    const id = data.node.id;
    const hidden = await manager.post(`/api/nodes/${id}/hide`);
    expect(hidden.body).toMatchObject({ code: 0, data: { id, visible: false } });
    app.clock.advance(6000);
    expect((await statusPage()).map((node) => node.name)).not.toContain('Hide me');
    expect(await feed()).not.toContain('Hide me');
    // A hidden node's agent is still served, as the command line's --hidden.
    expect((await nodeAgent(data).config()).status).toBe(200);

    expect((await manager.post(`/api/nodes/${id}/show`)).body).toMatchObject({ code: 0, data: { visible: true } });
    app.clock.advance(6000);
    expect((await statusPage()).map((node) => node.name)).toContain('Hide me');

    expect((await manager.delete(`/api/nodes/${id}`)).body).toMatchObject({ code: 0, data: { id } });
    expect((await nodeAgent(data).config()).status).toBe(403);
    app.clock.advance(6000);
    expect(await feed()).not.toContain('Hide me');
    expect((await manager.delete(`/api/nodes/${id}`)).body.code).toBe(404);

    const actions = (await auditOf(id)).map((entry) => [entry.action, entry.before, entry.after]);
    expect(actions).toEqual([
      ['node.add', null, expect.any(String)],
      ['node.update', '{"visible":true}', '{"visible":false}'],
      ['node.update', '{"visible":false}', '{"visible":true}'],
      ['node.remove', expect.stringContaining('"Hide me"'), null],
    ]);
  });

  it('shows the bytes a node carried today (UTC), before its rate', async () => {
    const data = await added({ protocol: 'trojan', rate: 2 });
    const listed = async (client = manager) =>
      (await client.get('/api/nodes')).body.data.nodes.find((node: { id: number }) => node.id === data.node.id);
    expect(await listed()).toMatchObject({ todayUpload: 0, todayDownload: 0 });
    expect((await nodeAgent(data).push({ [customer.id]: [1000, 5000] })).status).toBe(200);
    expect((await nodeAgent(data).push({ [customer.id]: [24, 120] })).status).toBe(200);
    expect(await listed()).toMatchObject({ todayUpload: 1024, todayDownload: 5120 });
    // A new UTC day starts from nothing (a fresh sign-in: the day idled the session out).
    app.clock.advance(24 * 3600_000);
    const { client } = await operatorSession(app, `next-day.nodes.${database}@example.com`, 'manager');
    expect(await listed(client)).toMatchObject({ todayUpload: 0, todayDownload: 0 });
  });
});
