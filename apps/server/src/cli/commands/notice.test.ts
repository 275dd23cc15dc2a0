import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, adminDatabase, adminInProcess, jsonOf } from '../../test/admin-cli.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

describe.each(DATABASES)('admin notice on %s', (database) => {
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  let app: TestApp;
  const inProcess = (...args: string[]) => adminInProcess(db.url, args);

  beforeAll(async () => {
    db = await adminDatabase(database);
    app = await startTestApp({ env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('sets the notice per language, sanitised, then shows and clears it', { timeout: 60_000 }, async () => {
    expect(jsonOf(await inProcess('notice', 'show', '--json'))).toEqual({ set: false, texts: null });

    const set = await admin(
      db.url,
      'notice',
      'set',
      '--text',
      '<b onclick="steal()">Maintenance</b> on 1 May<script>alert(1)</script>',
      '--text-zh',
      '<b>维护</b>：5 月 1 日',
    );
    expect(set).toMatchObject({ status: 0, stderr: '' });
    expect(set.stdout).toMatch(/^notice set\ntext \(en\): +<b>Maintenance<\/b> on 1 May\n/);
    expect(await app.app.notice.content('en')).toBe('<b>Maintenance</b> on 1 May');
    expect(await app.app.notice.content('pt-BR')).toBe('<b>Maintenance</b> on 1 May');
    expect(await app.app.notice.content('zh-Hans')).toBe('<b>维护</b>：5 月 1 日');

    const texts = {
      en: '<b>Maintenance</b> on 1 May',
      'pt-BR': '<b>Manutenção</b> em 1 de maio',
      'zh-Hans': '<b>Maintenance</b> on 1 May',
    };
    expect(jsonOf(await inProcess('notice', 'set', '--text', texts.en, '--text-pt', texts['pt-BR'], '--json'))).toEqual(
      { set: true, texts },
    );
    expect(jsonOf(await inProcess('notice', 'show', '--json'))).toEqual({ set: true, texts });
    expect((await inProcess('notice', 'show')).stdout).toMatch(/^text \(pt-BR\): +<b>Manutenção<\/b> em 1 de maio$/m);

    const cleared = await inProcess('notice', 'clear');
    expect(cleared).toMatchObject({ status: 0, stdout: 'notice cleared\nno notice: the dashboard shows none\n' });
    expect(await app.app.notice.content('en')).toBe('');
    expect(await app.app.notice.all()).toBeUndefined();
    // Clearing no notice is done too.
    expect(jsonOf(await inProcess('notice', 'clear', '--json'))).toEqual({ set: false, texts: null });
  });
});
