import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { createNodesService, userKey } from './nodes.service.js';

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

  it('takes at once a node added, or a token rotated, by another process, and refuses a wrong token', async () => {
    const { nodes } = server.app;
    // The command line writes the table alone: this instance's copy, read just now, knows nothing of it.
    const commandLine = createNodesService(server.app.db, server.app.store, server.clock.now);
    await nodes.all();
    const added = await commandLine.add({
      names: { en: 'New', 'pt-BR': 'New', 'zh-Hans': 'New' },
      labels: [],
      rate: 1,
      protocol: 'vless',
      host: 'new.example.com',
      port: 443,
      settings: { network: 'tcp', tls: 'tls' },
    });
    expect(await nodes.authenticate(added.id, added.token)).toMatchObject({ id: added.id, host: 'new.example.com' });
    expect(await nodes.authenticate(added.id, 'not its token')).toBeUndefined();
    expect(await nodes.authenticate(added.id, added.token, 'trojan')).toBeUndefined();
    expect((await nodes.all()).map((node) => node.id)).toContain(added.id);

    const rotated = await commandLine.rotateToken(nodeId);
    expect(await nodes.authenticate(nodeId, rotated!)).toMatchObject({ id: nodeId });
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
