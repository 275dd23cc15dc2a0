import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../test/accounts.js';
import { httpClient } from '../../test/http-client.js';
import { type Console, operatorSession } from '../../test/operators.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

describe.each(DATABASES)('the console’s notice on %s', (database) => {
  let app: TestApp;
  let manager: Console;
  let customerToken: string;
  const shown = async (language: string) =>
    (await httpClient(app.url, { language }).get('/mutenet/notice', { token: customerToken })).body.data.content;
  const auditRows = () =>
    app.app.db.selectFrom('audit_log').selectAll().where('target_type', '=', 'notice').orderBy('id').execute();

  beforeAll(async () => {
    app = await startTestApp({ database });
    manager = (await operatorSession(app, `manager.notice.${database}@example.com`, 'manager')).client;
    customerToken = await signUp(app, httpClient(app.url), `notice.${database}@example.com`);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('sets the notice in three languages, sanitised, shown to customers in theirs, and records it', async () => {
    expect((await manager.get('/api/notice')).body).toMatchObject({ code: 0, data: { texts: null } });
    const set = await manager.put('/api/notice', {
      en: '<b>Maintenance</b><script>alert(1)</script>',
      'zh-Hans': '<b>维护</b>',
    });
    // Portuguese not given: English stands for it, as `admin notice set` without --text-pt.
    const texts = { en: '<b>Maintenance</b>', 'pt-BR': '<b>Maintenance</b>', 'zh-Hans': '<b>维护</b>' };
    expect(set.body).toMatchObject({ code: 0, data: { texts } });
    expect((await manager.get('/api/notice')).body.data.texts).toEqual(texts);
    expect(await shown('zh-CN')).toBe('<b>维护</b>');
    expect(await shown('pt-BR')).toBe('<b>Maintenance</b>');

    expect((await manager.put('/api/notice', { en: 'Second', 'pt-BR': 'Segundo' })).body.code).toBe(0);
    expect(await shown('pt-BR')).toBe('Segundo');
    expect(await app.app.notice.all()).toEqual({ en: 'Second', 'pt-BR': 'Segundo', 'zh-Hans': 'Second' });

    const [first, second] = await auditRows();
    expect(first).toMatchObject({ action: 'notice.set', before: null });
    expect(JSON.parse(first?.after ?? 'null')).toEqual(texts);
    expect(JSON.parse(second?.before ?? 'null')).toEqual(texts);
  });

  it('clears the notice: customers see none, and the log keeps what it was', async () => {
    const cleared = await manager.delete('/api/notice');
    expect(cleared.body).toMatchObject({ code: 0, data: { texts: null } });
    expect(await shown('en')).toBe('');
    const last = (await auditRows()).at(-1);
    expect(last).toMatchObject({ action: 'notice.clear', after: null });
    expect(JSON.parse(last?.before ?? 'null')).toMatchObject({ en: 'Second' });
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    for (const body of [
      {},
      { en: '' },
      { en: 'x'.repeat(20_001) },
      { en: 'ok', fr: 'non' },
      { en: 7 },
      { en: 'ok', 'pt-BR': null },
    ]) {
      const answer = await manager.put('/api/notice', body);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.code).not.toBe(0);
    }
    expect(await app.app.notice.all()).toBeUndefined();
  });

  it('is the managers’ and owners’ only', async () => {
    const support = (await operatorSession(app, `support.notice.${database}@example.com`, 'support')).client;
    expect((await support.get('/api/notice')).status).toBe(403);
    expect((await support.put('/api/notice', { en: 'Hijacked' })).status).toBe(403);
    expect(await app.app.notice.all()).toBeUndefined();
  });
});
