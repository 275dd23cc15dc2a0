import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { userKey } from './nodes.service.js';

/** Past the node table's life in a process's memory (NODE_CACHE_MS). */
const PAST_CACHE_MS = 6000;

describe.each(DATABASES)('the node table kept in memory (%s)', (database) => {
  let server: TestApp;
  let nodeId: number;
  beforeAll(async () => {
    server = await startTestApp({ database });
    ({ id: nodeId } = await server.app.nodes.add({
      names: { en: 'Kept', 'pt-BR': 'Kept', 'zh-Hans': 'Kept' },
      labels: [],
      rate: 1,
      protocol: 'trojan',
      host: 'kept.example.com',
      port: 443,
      settings: { network: 'tcp', tls: 'tls' },
    }));
  });
  afterAll(() => server.close());

  it('stays the same list while the table is unchanged, so that what is kept with it lasts', async () => {
    const { nodes } = server.app;
    const first = await nodes.all();
    server.clock.advance(PAST_CACHE_MS);
    expect(await nodes.all()).toBe(first);
    expect(await nodes.named('en')).toBe(await nodes.named('en'));
  });

  it('is a new list once the table changed, whoever changed it', async () => {
    const { nodes } = server.app;
    const before = await nodes.all();
    await sql`update nodes set port = 8443 where id = ${nodeId}`.execute(server.app.db);
    server.clock.advance(PAST_CACHE_MS);
    const after = await nodes.all();
    expect(after).not.toBe(before);
    expect(after.find((node) => node.id === nodeId)?.port).toBe(8443);

    await nodes.update(nodeId, { port: 9443 });
    const updated = await nodes.all();
    expect(updated).not.toBe(after);
    expect(updated.find((node) => node.id === nodeId)?.port).toBe(9443);
  });

  it('takes a new token at once after a rotation, and refuses the old one', async () => {
    const { nodes } = server.app;
    const token = await nodes.rotateToken(nodeId);
    expect(await nodes.authenticate(nodeId, token!)).toBeDefined();
    const rotated = await nodes.rotateToken(nodeId);
    expect(await nodes.authenticate(nodeId, token!)).toBeUndefined();
    expect(await nodes.authenticate(nodeId, rotated!)).toBeDefined();
  });

  it('checks a token without waiting while the copy is fresh, and after reading the table once it is not', async () => {
    const { nodes } = server.app;
    const token = await nodes.rotateToken(nodeId);
    await nodes.all();
    const atOnce = nodes.authenticate(nodeId, token!);
    expect(atOnce).not.toBeInstanceOf(Promise);
    expect(atOnce).toMatchObject({ id: nodeId });
    expect(nodes.authenticate(nodeId, 'not its token')).toBeUndefined();
    server.clock.advance(PAST_CACHE_MS);
    const reloaded = nodes.authenticate(nodeId, token!);
    expect(reloaded).toBeInstanceOf(Promise);
    expect(await reloaded).toMatchObject({ id: nodeId });
  });
});

describe('a Shadowsocks 2022 user key', () => {
  it('is the first key-length characters of the UUID in base64, whichever UUID and length came before', () => {
    const first = '2c5b1e8a-1f2d-4c3b-9a8e-7d6c5b4a3f21';
    const second = '9f8e7d6c-5b4a-4321-8fed-cba987654321';
    expect(userKey(first, 16)).toBe('MmM1YjFlOGEtMWYyZC00Yw==');
    expect(userKey(first, 16)).toBe('MmM1YjFlOGEtMWYyZC00Yw==');
    expect(userKey(second, 16)).toBe('OWY4ZTdkNmMtNWI0YS00Mw==');
    expect(userKey(second, 32)).toBe('OWY4ZTdkNmMtNWI0YS00MzIxLThmZWQtY2JhOTg3NjU=');
    expect(userKey(first, 32)).toBe('MmM1YjFlOGEtMWYyZC00YzNiLTlhOGUtN2Q2YzViNGE=');
  });
});
