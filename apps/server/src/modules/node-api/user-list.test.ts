import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { customerWithPackage } from '../../test/subscription.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';
import { USER_LIST_MAX_AGE_MS, USER_LIST_REFRESH_BEFORE_MS, type UserList, UserListCache } from './user-list.js';

const idsOf = (list: UserList) =>
  (JSON.parse(list.body.toString('utf8')) as { users: Array<{ id: number }> }).users.map((user) => user.id);

describe.each(DATABASES)('the nodes’ user list on %s', (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let seq = 0;
  const newCustomer = () => customerWithPackage(app, `list${++seq}.${database}@example.com`, seeded.traffic30);

  beforeAll(async () => {
    app = await startTestApp({ database });
    seeded = await seedCatalog(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is built again in the background near the end of its minute, served meanwhile, once however many pull', async () => {
    const customer = await newCustomer();
    const cache = new UserListCache(app.app.subscriptions, app.clock.now);
    const first = await cache.current();
    expect(idsOf(first)).toContain(customer.id);

    // An operator's SQL, which bumps no version: only the rebuild of the minute sees it.
    await app.app.db.updateTable('users').set({ banned: 1 }).where('id', '=', customer.id).execute();
    const reads = vi.spyOn(app.app.subscriptions, 'usableUsers');
    try {
      // Some seconds before the rebuild is due (the test clock runs on from the real one).
      app.clock.advance(USER_LIST_MAX_AGE_MS - USER_LIST_REFRESH_BEFORE_MS - 5000);
      expect(await cache.current()).toBe(first);
      expect(reads).not.toHaveBeenCalled();

      app.clock.advance(5000);
      // Each pull is answered with the list kept, without waiting, while one rebuild runs for all of them.
      const pulls = await Promise.all([cache.current(), cache.current(), cache.current()]);
      expect(pulls.every((pulled) => pulled === first)).toBe(true);
      expect(reads).toHaveBeenCalledTimes(1);
      await vi.waitFor(async () => expect(await cache.current()).not.toBe(first));
      const rebuilt = await cache.current();
      expect(idsOf(rebuilt)).not.toContain(customer.id);
      expect(rebuilt.etag).not.toBe(first.etag);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('goes on serving the list kept when its rebuild in the background fails, and tries again', async () => {
    const customer = await newCustomer();
    const cache = new UserListCache(app.app.subscriptions, app.clock.now);
    const first = await cache.current();
    await app.app.db.updateTable('users').set({ banned: 1 }).where('id', '=', customer.id).execute();
    // A database that fails the read once (vitest fails the run on the rejection, were it left unhandled).
    const reads = vi.spyOn(app.app.subscriptions, 'usableUsers').mockRejectedValueOnce(new Error('database away'));
    try {
      app.clock.advance(USER_LIST_MAX_AGE_MS - USER_LIST_REFRESH_BEFORE_MS);
      expect(await cache.current()).toBe(first);
      await vi.waitFor(() => expect(reads).toHaveBeenCalledTimes(1));
      await vi.waitFor(async () => {
        expect(idsOf(await cache.current())).not.toContain(customer.id);
      });
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });

  it('keeps the gzip and tag of a list rebuilt unchanged', async () => {
    await newCustomer();
    const cache = new UserListCache(app.app.subscriptions, app.clock.now);
    const first = await cache.current();
    app.clock.advance(USER_LIST_MAX_AGE_MS);
    // Past its minute: the pull waits for the rebuild, which finds the same users.
    const rebuilt = await cache.current();
    expect(rebuilt).not.toBe(first);
    expect(rebuilt.body.equals(first.body)).toBe(true);
    expect(rebuilt.gzipped).toBe(first.gzipped);
    expect(rebuilt.etag).toBe(first.etag);
  });
});
