import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorSession } from '../../test/operators.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

describe.each(DATABASES)('the audit log on %s', (database) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ database });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists changes newest first, a page at a time, filtered by who, what and when', async () => {
    const owner = await operatorSession(app, `owner.${database}@example.com`, 'owner');
    const startedAt = app.clock.now();
    const added: number[] = [];
    for (const name of ['ana', 'bo', 'cy']) {
      const answer = await owner.client.post('/api/operators', {
        email: `${name}.${database}@example.com`,
        role: 'support',
      });
      expect(answer.body.code).toBe(0);
      added.push(answer.body.data.operator.id);
      app.clock.advance(1000);
    }
    expect((await owner.client.put(`/api/operators/${added[0]}`, { disabled: true })).body.code).toBe(0);

    const all = (await owner.client.get(`/api/audit?operatorId=${owner.id}&from=${startedAt}`)).body.data;
    expect(all.entries.map((entry: { action: string }) => entry.action)).toEqual([
      'operator.update',
      'operator.add',
      'operator.add',
      'operator.add',
    ]);
    expect(all.entries[0]).toMatchObject({
      actor: owner.email,
      operatorId: owner.id,
      tokenId: null,
      targetType: 'operator',
      targetId: String(added[0]),
      after: expect.objectContaining({ disabled: true }),
      // The client's address as the trusted proxy forwarded it.
      ip: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
    });
    expect(all.next).toBeNull();

    // Two at a time: the cursor leads to the rest, and the last page says there is no more.
    const first = (await owner.client.get(`/api/audit?operatorId=${owner.id}&from=${startedAt}&limit=2`)).body.data;
    expect(first.entries).toEqual(all.entries.slice(0, 2));
    const second = (
      await owner.client.get(`/api/audit?operatorId=${owner.id}&from=${startedAt}&limit=2&cursor=${first.next}`)
    ).body.data;
    expect(second.entries).toEqual(all.entries.slice(2, 4));
    const third = (
      await owner.client.get(`/api/audit?operatorId=${owner.id}&from=${startedAt}&limit=2&cursor=${second.next}`)
    ).body.data;
    expect(third).toEqual({ entries: [], next: null });

    const adds = (await owner.client.get(`/api/audit?action=operator.add&targetId=${added[1]}`)).body.data;
    expect(adds.entries).toEqual([all.entries[2]]);
    const window = (await owner.client.get(`/api/audit?from=${startedAt + 1000}&to=${startedAt + 2000}`)).body.data;
    expect(window.entries.map((entry: { targetId: string }) => entry.targetId)).toEqual([String(added[1])]);
  });

  it('refuses a bad filter with the envelope, never a 500', async () => {
    const owner = await operatorSession(app, `checker.${database}@example.com`, 'owner');
    for (const query of [
      'limit=0',
      'limit=201',
      'limit=x',
      'cursor=-1',
      'operatorId=abc',
      'from=1.5',
      `action=${'a'.repeat(65)}`,
    ]) {
      const answer = await owner.client.get(`/api/audit?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.code, query).toBe(400);
    }
  });
});
