import { ERRORS } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../test/http-client.js';
import { operatorSession } from '../../test/operators.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { recordSecret } from '../../test/test-log.js';

describe.each(DATABASES)('owners’ API tokens on %s', (database) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ database });
  });
  afterAll(() => app.close());

  /** A script: the token as `Authorization: Bearer`, no cookie, no origin. */
  const script = (token: string) => {
    const api = httpClient(app.url);
    const headers = { authorization: `Bearer ${token}` };
    return {
      get: (path: string) => api.get(`/admin/api${path}`, { headers }),
      post: (path: string, json: unknown) => api.post(`/admin/api${path}`, { json, headers }),
    };
  };

  it('makes a token once, lists it without its secret, answers it within its role, and revokes it', {
    timeout: 60_000,
  }, async () => {
    const owner = await operatorSession(app, `owner.tokens.${database}@example.com`, 'owner');
    const made: Record<string, { id: number; token: string }> = {};
    for (const role of ['owner', 'manager', 'support'] as const) {
      const { body } = await owner.client.post('/api/tokens', { name: `  ${role} script  `, role });
      expect(body).toMatchObject({
        code: 0,
        data: { name: `${role} script`, role, createdBy: { id: owner.id, email: owner.email }, lastUsedAt: null },
      });
      expect(body.data.token).toMatch(/^\S{32,}$/);
      recordSecret('session token', body.data.token);
      made[role] = body.data;
    }
    const stored = await app.app.db.selectFrom('api_tokens').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(made.owner!.token);

    const listed = await owner.client.get('/api/tokens');
    expect(listed.body.data.tokens.map((token: { name: string }) => token.name)).toEqual([
      'owner script',
      'manager script',
      'support script',
    ]);
    expect(listed.text).not.toContain(made.owner!.token);
    expect(Object.keys(listed.body.data.tokens[0]).sort()).toEqual(
      ['createdAt', 'createdBy', 'id', 'lastUsedAt', 'name', 'role'].sort(),
    );

    // Answered as the console is, within the token's role.
    expect((await script(made.owner!.token).get('/audit')).status).toBe(200);
    expect((await script(made.support!.token).get('/audit')).body.code).toBe(ERRORS.FORBIDDEN.code);
    expect((await script(made.support!.token).get('/audit')).status).toBe(403);
    expect((await script(made.manager!.token).get('/overview')).body).toMatchObject({ code: 0 });
    expect((await script(made.support!.token).get('/overview')).status).toBe(403);
    expect((await script(made.manager!.token).post('/tokens', { name: 'x', role: 'owner' })).status).toBe(403);
    const used = await owner.client.get('/api/tokens');
    const ownerToken = used.body.data.tokens.find((token: { id: number }) => token.id === made.owner!.id);
    expect(ownerToken.lastUsedAt).toBeGreaterThanOrEqual(ownerToken.createdAt);

    // A token's own change is recorded in its maker's name, with the token.
    const byScript = await script(made.owner!.token).post('/tokens', { name: 'made by a script', role: 'support' });
    expect(byScript.body).toMatchObject({ code: 0, data: { createdBy: { id: owner.id } } });
    recordSecret('session token', byScript.body.data.token);

    expect((await owner.client.delete(`/api/tokens/${made.support!.id}`)).body).toMatchObject({ code: 0 });
    expect((await script(made.support!.token).get('/audit')).status).toBe(401);
    expect((await script(made.support!.token).get('/session')).status).toBe(401);
    const again = await owner.client.delete(`/api/tokens/${made.support!.id}`);
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 404, code: ERRORS.NOT_FOUND.code });
    const after = await owner.client.get('/api/tokens');
    expect(after.body.data.tokens.map((token: { id: number }) => token.id)).not.toContain(made.support!.id);

    const audit = await owner.client.get('/api/audit?targetType=apiToken');
    const entries = audit.body.data.entries as Array<{
      action: string;
      targetId: string;
      after: unknown;
      actor: string;
    }>;
    expect(entries.map((entry) => [entry.action, entry.targetId])).toEqual([
      ['apiToken.revoke', String(made.support!.id)],
      ['apiToken.create', String(byScript.body.data.id)],
      ['apiToken.create', String(made.support!.id)],
      ['apiToken.create', String(made.manager!.id)],
      ['apiToken.create', String(made.owner!.id)],
    ]);
    expect(entries[1]).toMatchObject({
      actor: `${owner.email} (API token ${made.owner!.id})`,
      after: { name: 'made by a script', role: 'support' },
    });
    for (const token of Object.values(made)) expect(audit.text).not.toContain(token.token);
  });

  it('refuses a blank or overlong name, an unknown role and a bad id, never with a 500', {
    timeout: 60_000,
  }, async () => {
    const owner = await operatorSession(app, `owner.bad-tokens.${database}@example.com`, 'owner');
    const blank = await owner.client.post('/api/tokens', { name: '   ', role: 'owner' });
    expect(blank.body.code).toBe(ERRORS.ALL_REQUIRED.code);
    const long = await owner.client.post('/api/tokens', { name: 'x'.repeat(65), role: 'owner' });
    expect(long.body.code).toBe(ERRORS.BAD_REQUEST.code);
    const role = await owner.client.post('/api/tokens', { name: 'ok', role: 'root' });
    expect(role.body.code).toBe(ERRORS.BAD_REQUEST.code);
    for (const id of ['0', '-1', 'abc', '99999999999', '1.5']) {
      const result = await owner.client.delete(`/api/tokens/${id}`);
      expect(result.status).toBeLessThan(500);
      expect(result.body.code).not.toBe(0);
    }
    expect((await owner.client.delete('/api/tokens/424242')).status).toBe(404);
    expect(await app.app.db.selectFrom('api_tokens').select('id').where('name', '=', 'ok').execute()).toEqual([]);
  });
});
