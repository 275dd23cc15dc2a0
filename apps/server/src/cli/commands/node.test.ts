import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodesService } from '../../modules/nodes/nodes.service.js';
import { connectRedis, REDIS_KEY_PREFIX, RedisStore } from '../../plugins/app/store.js';
import { admin, adminDatabase, adminInProcess, expectFailure, jsonOf } from '../../test/admin-cli.js';
import { httpClient } from '../../test/http-client.js';
import { agent } from '../../test/subscription.js';
import { DATABASES, REDIS_URL, startTestApp, type TestApp } from '../../test/test-app.js';

const PUBLIC_KEY = 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw';
const PRIVATE_KEY = 'SMTqxmd9bZbLaykpNiHlRxpP9Y0wGcN3K6a8ZS7G2Hk';
const PUBLIC_URL = 'https://panel.example.com';

describe.each(DATABASES)('admin node on %s', (database) => {
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  let app: TestApp;
  const run = (...args: string[]) => admin(db.url, ...args);
  const inProcess = (...args: string[]) => adminInProcess(db.url, args, { PUBLIC_URL });
  /** The app keeps its copy of the node table for 5 s: past it, it reads what the command wrote. */
  const afterNodeCache = () => app.clock.advance(6000);
  /** A node API call as an agent makes it, with the type the agent names. */
  const config = (id: number, token: string, type: string) =>
    httpClient(app.url).get(`/api/v1/server/UniProxy/config?node_id=${id}&node_type=${type}&token=${token}`);

  beforeAll(async () => {
    db = await adminDatabase(database);
    app = await startTestApp({ env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('adds a REALITY node whose printed token the node API accepts', { timeout: 60_000 }, async () => {
    const added = jsonOf(
      await run(
        'node',
        'add',
        '--name',
        'Tokyo 1',
        '--name-zh',
        '东京 1',
        '--type',
        'vless',
        '--host',
        'JP1.example.com',
        '--port',
        '443',
        '--tls',
        'reality',
        '--sni',
        'www.microsoft.com',
        '--reality-public-key',
        PUBLIC_KEY,
        '--reality-private-key',
        PRIVATE_KEY,
        '--reality-short-id',
        '6BA85179',
        '--flow',
        'xtls-rprx-vision',
        '--fingerprint',
        'chrome',
        '--mag',
        '1.5',
        '--label',
        'JP, fast',
        '--sort',
        '2',
        '--json',
      ),
    );
    expect(added).toMatchObject({
      id: expect.any(Number),
      token: expect.stringMatching(/^[\w-]{43}$/),
      names: { en: 'Tokyo 1', 'pt-BR': 'Tokyo 1', 'zh-Hans': '东京 1' },
      type: 'vless',
      host: 'jp1.example.com',
      port: 443,
      mag: 1.5,
      labels: ['JP', 'fast'],
      visible: true,
      sort: 2,
      settings: {
        network: 'tcp',
        tls: 'reality',
        sni: 'www.microsoft.com',
        flow: 'xtls-rprx-vision',
        fingerprint: 'chrome',
        realityPublicKey: PUBLIC_KEY,
        realityShortId: '6ba85179',
      },
    });
    // The private key goes to the node alone, never to the terminal.
    expect(JSON.stringify(added)).not.toContain(PRIVATE_KEY);
    // The child process has no PUBLIC_URL: the server's default.
    expect(added.v2bx).toEqual({
      Core: 'xray',
      ApiHost: 'http://localhost:8080',
      ApiKey: added.token,
      NodeID: added.id,
      NodeType: 'vless',
      Timeout: 30,
      ListenIP: '0.0.0.0',
      SendIP: '0.0.0.0',
      CertConfig: { CertMode: 'none' },
    });
    expect(added.xrayr).toMatchObject({
      PanelType: 'NewV2board',
      ApiConfig: { ApiKey: added.token, NodeID: added.id, NodeType: 'V2ray', EnableVless: true },
      ControllerConfig: { EnableREALITY: true },
    });

    // V2bX names the protocol, XrayR's V2ray type with EnableVless sends "vless" too.
    afterNodeCache();
    const answered = await config(added.id, added.token, 'vless');
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({
      server_port: 443,
      tls: 2,
      flow: 'xtls-rprx-vision',
      tls_settings: { server_name: 'www.microsoft.com', private_key: PRIVATE_KEY, short_id: '6ba85179' },
    });
    expect((await config(added.id, `${added.token}x`, 'vless')).status).toBe(403);
    expect((await config(added.id, added.token, 'vmess')).status).toBe(403);
    expect(await app.app.nodes.customerList('zh-Hans')).toEqual([
      { name: '东京 1', label: 'JP,fast', mag: 1.5, status: 'online' },
    ]);
    await app.app.nodes.remove(added.id);
  });

  it('adds a node whose agent is served at once, not after the servers read their node table again', {
    timeout: 60_000,
  }, async () => {
    // The server has just read its node table: a call of an unknown node makes it.
    expect((await config(999_999, 'not-a-token', 'trojan')).status).toBe(403);
    const node = jsonOf(
      await inProcess(
        'node',
        'add',
        '--name',
        'At once',
        '--type',
        'trojan',
        '--host',
        'now.example.com',
        '--port',
        '443',
        '--json',
      ),
    );
    expect((await config(node.id, node.token, 'trojan')).status).toBe(200);
    expect((await agent(app, { ...node, protocol: 'trojan' }).users()).status).toBe(200);
    await app.app.nodes.remove(node.id);
  });

  it('prints the node and what to paste into V2bX and XrayR', { timeout: 60_000 }, async () => {
    const [hysteria, vmess] = await Promise.all([
      run(
        'node',
        'add',
        '--name',
        'Hy2',
        '--type',
        'hysteria2',
        '--host',
        '203.0.113.7',
        '--port',
        '8443',
        '--obfs-password',
        'obfs-secret',
        '--sni',
        'hy.example.com',
        '--hidden',
      ),
      adminInProcess(
        db.url,
        ['node', 'add', '--name', 'VMess', '--type', 'vmess', '--host', 'vm.example.com', '--port', '80', '--json'],
        { PUBLIC_URL },
      ),
    ]);
    expect(hysteria).toMatchObject({ status: 0, stderr: '' });
    const token = /^token: +([\w-]{43})$/m.exec(hysteria.stdout)?.[1];
    expect(token).toBeDefined();
    expect(hysteria.stdout).toMatch(/^node \d+ added\n/);
    expect(hysteria.stdout).toMatch(/^type: +hysteria2\naddress: +203\.0\.113\.7:8443\n/m);
    expect(hysteria.stdout).toMatch(/^visible: +no$/m);
    expect(hysteria.stdout).toMatch(/^sni: +hy\.example\.com\nobfs password: +obfs-secret\ntoken: /m);
    expect(hysteria.stdout).toContain('"Core": "hysteria2"');
    expect(hysteria.stdout).toContain(`"ApiKey": "${token}"`);
    expect(hysteria.stdout).toContain('"CertMode": "file"');
    expect(hysteria.stdout).toContain('XrayR: does not serve hysteria2 nodes; use V2bX.');

    const node = jsonOf(vmess);
    expect(node.v2bx).toMatchObject({ Core: 'xray', ApiHost: PUBLIC_URL, NodeType: 'vmess' });
    expect(node.xrayr.ApiConfig).toEqual({
      ApiHost: PUBLIC_URL,
      ApiKey: node.token,
      NodeID: node.id,
      NodeType: 'V2ray',
      Timeout: 30,
    });
    // XrayR calls VMess "V2ray", as V2Board does.
    afterNodeCache();
    expect((await config(node.id, node.token, 'v2ray')).status).toBe(200);
    expect((await config(node.id, node.token, 'vmess')).status).toBe(200);
  });

  it('rotates a token: the new one works and the old one stops', { timeout: 60_000 }, async () => {
    const node = jsonOf(
      await inProcess(
        'node',
        'add',
        '--name',
        'Trojan',
        '--type',
        'trojan',
        '--host',
        'tr.example.com',
        '--port',
        '443',
        '--json',
      ),
    );
    afterNodeCache();
    expect((await agent(app, { ...node, protocol: 'trojan' }).config()).status).toBe(200);

    const rotated = jsonOf(await inProcess('node', 'token', String(node.id), '--json'));
    expect(rotated).toMatchObject({ id: node.id, type: 'trojan', token: expect.stringMatching(/^[\w-]{43}$/) });
    expect(rotated.token).not.toBe(node.token);
    expect(rotated.v2bx.ApiKey).toBe(rotated.token);
    afterNodeCache();
    expect((await agent(app, { ...node, protocol: 'trojan' }).config()).status).toBe(403);
    expect((await agent(app, { ...rotated, protocol: 'trojan' }).config()).status).toBe(200);

    const text = await inProcess('node', 'token', String(node.id));
    expect(text).toMatchObject({ status: 0, stderr: '' });
    expect(text.stdout).toMatch(new RegExp(`^node ${node.id} has a new token: the old one no longer works`));
    expect(text.stdout).toMatch(/^token: +[\w-]{43}$/m);
    expectFailure(await inProcess('node', 'token', '9999'), 1, /^admin: node 9999 not found$/m);
  });

  it('lists nodes, online only when the store is the servers’ Redis', { timeout: 60_000 }, async () => {
    const nodes = jsonOf(await inProcess('node', 'list', '--json'));
    expect(nodes.length).toBeGreaterThanOrEqual(3);
    for (const node of nodes) expect(node).not.toHaveProperty('token');
    expect(nodes).toContainEqual(
      expect.objectContaining({ names: expect.objectContaining({ en: 'Hy2' }), visible: false, online: null }),
    );
    const text = await inProcess('node', 'list');
    expect(text.stdout).toMatch(/^ID +NAME +TYPE +ADDRESS +MAG +LABELS +VISIBLE +ONLINE$/m);
    expect(text.stdout).toMatch(/ Hy2 +hysteria2 +203\.0\.113\.7:8443 +1 +- +no +unknown$/m);

    // A Redis that cannot be reached: still listed, online unknown.
    const away = await adminInProcess(db.url, ['node', 'list'], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(away).toMatchObject({ status: 0, stderr: '' });
    expect(away.stdout).toMatch(/ Hy2 .* unknown$/m);

    if (!REDIS_URL) return;
    // The servers' heartbeats, in the Redis they share with the command line.
    const redis = connectRedis(REDIS_URL, REDIS_KEY_PREFIX);
    await once(redis, 'ready');
    const store = new RedisStore(redis);
    const hy2 = nodes.find((node: { names: { en: string } }) => node.names.en === 'Hy2');
    try {
      await createNodesService(app.app.db, store, Date.now).heartbeat(hy2.id);
      const shared = jsonOf(await adminInProcess(db.url, ['node', 'list', '--json'], { REDIS_URL }));
      expect(shared.find((node: { id: number }) => node.id === hy2.id).online).toBe(true);
      expect(shared.filter((node: { online: boolean }) => node.online === false)).toHaveLength(shared.length - 1);
    } finally {
      await store.delete(`node-alive:${hy2.id}`);
      await store.close();
    }
  });

  it('updates a node, dropping settings that no longer apply', { timeout: 60_000 }, async () => {
    const node = jsonOf(
      await inProcess(
        'node',
        'add',
        '--name',
        'WS',
        '--type',
        'vless',
        '--host',
        'ws.example.com',
        '--port',
        '443',
        '--network',
        'ws',
        '--path',
        '/ray',
        '--host-header',
        'cdn.example.com',
        '--tls',
        'tls',
        '--json',
      ),
    );
    const id = String(node.id);
    const updated = jsonOf(
      await inProcess('node', 'update', id, '--name-pt', 'WS (pt)', '--mag', '2', '--label', '', '--hidden', '--json'),
    );
    expect(updated).toMatchObject({
      names: { en: 'WS', 'pt-BR': 'WS (pt)', 'zh-Hans': 'WS' },
      mag: 2,
      labels: [],
      visible: false,
      settings: { network: 'ws', path: '/ray', hostHeader: 'cdn.example.com', tls: 'tls' },
    });
    expect(updated).not.toHaveProperty('token');

    // To gRPC: the path and Host header go; to trojan: TLS stays on.
    const grpc = jsonOf(await inProcess('node', 'update', id, '--network', 'grpc', '--service-name', 'tun', '--json'));
    expect(grpc.settings).toEqual({ network: 'grpc', serviceName: 'tun', tls: 'tls' });
    const trojan = jsonOf(await inProcess('node', 'update', id, '--type', 'trojan', '--visible', '--json'));
    expect(trojan).toMatchObject({ type: 'trojan', visible: true, settings: { network: 'grpc', tls: 'tls' } });
    // To shadowsocks: a cipher is needed; the transport and TLS go.
    expectFailure(
      await inProcess('node', 'update', id, '--type', 'shadowsocks'),
      2,
      /^admin: a shadowsocks node needs --cipher: aes-128-gcm, .* or 2022-blake3-chacha20-poly1305 \(see: admin node update --help\)$/m,
    );
    const ss = jsonOf(
      await inProcess('node', 'update', id, '--type', 'shadowsocks', '--cipher', '2022-blake3-aes-256-gcm', '--json'),
    );
    expect(ss.settings).toEqual({ network: 'tcp', tls: 'none', cipher: '2022-blake3-aes-256-gcm' });
    // Shadowsocks 2022 gets a server key of its own, kept out of the output.
    const stored = await app.app.nodes.find(node.id);
    expect(Buffer.from(stored!.settings.serverKey ?? '', 'base64')).toHaveLength(32);

    // Refused against the node as it is, changing nothing: exit 2, naming the flag.
    for (const [args, message] of [
      [['--flow', 'xtls-rprx-vision'], /--flow applies only to vless nodes, not shadowsocks/],
      [['--tls', 'tls'], /--tls applies only to vless, vmess and trojan nodes, not shadowsocks/],
      [['--type', 'vmess', '--tls', 'reality'], /--tls reality applies only to vless nodes, not vmess/],
      [
        ['--type', 'vless', '--tls', 'reality', '--sni', 'a.example.com'],
        /--tls reality needs --reality-public-key and --reality-private-key/,
      ],
    ] as const) {
      expectFailure(await inProcess('node', 'update', id, ...args), 2, message);
    }
    expect((await app.app.nodes.find(node.id))?.protocol).toBe('shadowsocks');
    expectFailure(await inProcess('node', 'update', '9999', '--mag', '2'), 1, /^admin: node 9999 not found$/m);
  });

  it('removes a node: its agent is refused', { timeout: 60_000 }, async () => {
    const node = jsonOf(
      await inProcess(
        'node',
        'add',
        '--name',
        'TUIC',
        '--type',
        'tuic',
        '--host',
        'tuic.example.com',
        '--port',
        '10443',
        '--congestion-control',
        'cubic',
        '--json',
      ),
    );
    expect(node.v2bx.Core).toBe('sing');
    expect(node.xrayr).toBeNull();
    afterNodeCache();
    expect((await agent(app, { ...node, protocol: 'tuic' }).config()).body).toMatchObject({
      congestion_control: 'cubic',
    });
    expect(jsonOf(await inProcess('node', 'remove', String(node.id), '--json'))).toEqual({
      id: node.id,
      removed: true,
    });
    afterNodeCache();
    expect((await agent(app, { ...node, protocol: 'tuic' }).config()).status).toBe(403);
    expectFailure(
      await inProcess('node', 'remove', String(node.id)),
      1,
      new RegExp(`^admin: node ${node.id} not found$`, 'm'),
    );
  });
});
