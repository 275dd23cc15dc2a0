import { expect } from 'vitest';
import type { NodeInput } from '../modules/nodes/nodes.service.js';
import { signUp } from './accounts.js';
import { httpClient } from './http-client.js';
import { NODE_SPECS } from './node-specs.js';
import type { TestApp } from './test-app.js';
import { recordSecret } from './test-log.js';

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
  const nodes = [];
  for (const spec of NODE_SPECS) {
    const { name, ...rest } = spec;
    const input: NodeInput = { ...base, ...rest, names: NODE_NAMES(name) };
    const node = await app.app.nodes.add(input);
    recordSecret('node token', node.token);
    nodes.push({ ...node, protocol: spec.protocol, rate: input.rate, name });
  }
  return nodes;
}

/** Calls the node API as V2bX does: the node's id, type and own token in the query. */
export function agent(app: Pick<TestApp, 'url'>, node: { id: number; token: string; protocol: string }) {
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
