import { expect } from 'vitest';
import type { NodeInput } from '../modules/nodes/nodes.service.js';
import { signUp } from './accounts.js';
import { httpClient } from './http-client.js';
import type { TestApp } from './test-app.js';

/** A signed-up customer who bought and paid a package through the real calls; force queues it after a live one. */
export async function customerWithPackage(app: TestApp, email: string, pkgId: number | null) {
  const api = httpClient(app.url, { language: 'en' });
  const token = await signUp(app, api, email);
  const user = await app.app.db
    .selectFrom('users')
    .select(['id', 'uuid'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const customer = { api, token, id: user.id, email, buy: (id: number) => buy(customer, id) };
  if (pkgId !== null) await customer.buy(pkgId);
  return customer;
}

export type Customer = Awaited<ReturnType<typeof customerWithPackage>>;

async function buy(customer: { api: ReturnType<typeof httpClient>; token: string }, pkgId: number) {
  const { body } = await customer.api.post('/mutenet/user/order/create', {
    form: { pkgId: String(pkgId), currency: 'USD', force: '1' },
    token: customer.token,
  });
  expect(body.code).toBe(0);
  const paid = await customer.api.post(`/payment/sandbox/${body.data.orderNo}/approve`, { token: customer.token });
  expect(paid.body).toMatchObject({ code: 0, data: { status: 'success' } });
}

export const NODE_NAMES = (en: string) => ({ en, 'pt-BR': `${en} BR`, 'zh-Hans': `${en} 中文` });

/** Nodes of every protocol, added through the nodes service as the admin command line does. */
export async function addNodes(app: TestApp) {
  const base = { labels: ['fast', 'stream'], rate: 1, host: 'node.example.com', visible: true };
  const specs: Array<
    Omit<NodeInput, 'labels' | 'host' | 'visible' | 'names' | 'rate'> & { name: string; rate?: number }
  > = [
    {
      name: 'Reality',
      protocol: 'vless',
      port: 443,
      rate: 1.5,
      settings: {
        network: 'tcp',
        tls: 'reality',
        sni: 'www.microsoft.com',
        flow: 'xtls-rprx-vision',
        fingerprint: 'chrome',
        realityPublicKey: 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw',
        realityPrivateKey: 'SMTqxmd9bZbLaykpNiHlRxpP9Y0wGcN3K6a8ZS7G2Hk',
        realityShortId: '6ba85179e30d4fc2',
      },
    },
    {
      name: 'VMess WS',
      protocol: 'vmess',
      port: 8443,
      settings: { network: 'ws', path: '/ws', hostHeader: 'cdn.example.com', tls: 'tls' },
    },
    { name: 'Trojan', protocol: 'trojan', port: 9443, settings: { network: 'tcp', tls: 'tls' } },
    {
      name: 'SS 2022',
      protocol: 'shadowsocks',
      port: 8388,
      settings: { network: 'tcp', tls: 'none', cipher: '2022-blake3-aes-128-gcm' },
    },
    {
      name: 'Hy2',
      protocol: 'hysteria2',
      port: 443,
      settings: { network: 'tcp', tls: 'tls', obfsPassword: 'obfs-secret' },
    },
    { name: 'TUIC', protocol: 'tuic', port: 10443, settings: { network: 'tcp', tls: 'tls', congestionControl: 'bbr' } },
  ];
  const nodes = [];
  for (const spec of specs) {
    const { name, ...rest } = spec;
    const input: NodeInput = { ...base, ...rest, names: NODE_NAMES(name) };
    nodes.push({ ...(await app.app.nodes.add(input)), protocol: spec.protocol, rate: input.rate, name });
  }
  return nodes;
}

/** Calls the node API as V2bX does: the node's id, type and own token in the query. */
export function agent(app: TestApp, node: { id: number; token: string; protocol: string }) {
  const api = httpClient(app.url);
  const query = (path: string) =>
    `/api/v1/server/UniProxy/${path}?node_id=${node.id}&node_type=${node.protocol}&token=${node.token}`;
  return {
    config: (etag?: string) => api.get(query('config'), etag ? { headers: { 'if-none-match': etag } } : {}),
    users: (etag?: string) => api.get(query('user'), etag ? { headers: { 'if-none-match': etag } } : {}),
    push: (traffic: Record<string, [number, number]>) => api.post(query('push'), { json: traffic }),
    alive: (online: Record<string, string[]>) => api.post(query('alive'), { json: online }),
    aliveList: () => api.get(query('alivelist')),
  };
}
