import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminDatabase, adminInProcess, expectFailure, jsonOf } from '../../test/admin-cli.js';
import { DATABASES } from '../../test/test-app.js';
import { recordSecret } from '../../test/test-log.js';

describe.each(DATABASES)('admin operator on %s', (database) => {
  let db: Awaited<ReturnType<typeof adminDatabase>>;
  const inProcess = (...args: string[]) => adminInProcess(db.url, args);
  const owner = `Owner.${database}@example.com`;
  const support = `support.${database}@example.com`;

  beforeAll(async () => {
    db = await adminDatabase(database);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('adds operators with a one-time password, shown once, and lists them', { timeout: 60_000 }, async () => {
    expect((await inProcess('operator', 'list')).stdout).toMatch(/no operators: add the first with admin operator add/);

    const added = jsonOf(await inProcess('operator', 'add', owner, '--role', 'owner', '--json'));
    recordSecret('password', added.oneTimePassword);
    expect(added).toEqual({
      id: expect.any(Number),
      email: owner.toLowerCase(),
      role: 'owner',
      totpEnrolled: false,
      mustChangePassword: true,
      disabled: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      oneTimePassword: expect.stringMatching(/^[\w-]{20}$/),
    });

    const text = await inProcess('operator', 'add', support, '--role', 'support');
    expect(text).toMatchObject({ status: 0, stderr: '' });
    const password = /^one-time password: (\S+)$/m.exec(text.stdout)?.[1];
    recordSecret('password', password);
    expect(password).toMatch(/^[\w-]{20}$/);
    expect(text.stdout).toMatch(/^role: +support$/m);

    const list = jsonOf(await inProcess('operator', 'list', '--json'));
    expect(list.map((operator: { email: string; role: string }) => [operator.email, operator.role])).toEqual([
      [owner.toLowerCase(), 'owner'],
      [support, 'support'],
    ]);
    // The list never shows a password.
    expect(JSON.stringify(list)).not.toContain(added.oneTimePassword);
    expect((await inProcess('operator', 'list')).stdout).toMatch(
      /^ID +EMAIL +ROLE +AUTHENTICATOR +DISABLED +CREATED$/m,
    );
  });

  it('refuses bad arguments and a taken email', { timeout: 60_000 }, async () => {
    expectFailure(await inProcess('operator', 'add', 'someone@example.com'), 2, /--role is required/);
    expectFailure(await inProcess('operator', 'add', 'someone@example.com', '--role', 'root'), 2, /--role must be/);
    expectFailure(await inProcess('operator', 'add', 'nobody', '--role', 'support'), 2, /bad EMAIL "nobody"/);
    expectFailure(await inProcess('operator', 'add', support, '--role', 'manager'), 1, /already registered/);
    expectFailure(await inProcess('operator', 'disable', 'ghost@example.com'), 1, /no operator with the email/);
    expectFailure(await inProcess('operator', 'reset-password', 'ghost@example.com'), 1, /no operator with the email/);
  });

  it('resets a password, disables and enables, but never the last active owner', { timeout: 60_000 }, async () => {
    const reset = jsonOf(await inProcess('operator', 'reset-password', support, '--json'));
    recordSecret('password', reset.oneTimePassword);
    expect(reset).toMatchObject({ email: support, mustChangePassword: true, oneTimePassword: expect.any(String) });

    expect(jsonOf(await inProcess('operator', 'reset-totp', support, '--json'))).toMatchObject({ totpEnrolled: false });
    expectFailure(await inProcess('operator', 'reset-totp', 'ghost@example.com'), 1, /no operator with the email/);
    expect(jsonOf(await inProcess('operator', 'disable', support, '--json'))).toMatchObject({ disabled: true });
    expect(jsonOf(await inProcess('operator', 'enable', support, '--json'))).toMatchObject({ disabled: false });
    expectFailure(await inProcess('operator', 'disable', owner), 1, /last active owner cannot be demoted or disabled/);

    // With a second owner, the first may be disabled.
    const second = jsonOf(
      await inProcess('operator', 'add', `second.${database}@example.com`, '--role', 'owner', '--json'),
    );
    recordSecret('password', second.oneTimePassword);
    expect((await inProcess('operator', 'disable', owner)).stdout).toMatch(/disabled/);
    expectFailure(await inProcess('operator', 'disable', second.email), 1, /last active owner/);
  });
});
