import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIB } from '../../lib/units.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { addNodes, agent } from '../../test/subscription.js';
import { DATABASES, startTestApp, type TestApp } from '../../test/test-app.js';

const DAY = 24 * 3600_000;

type Traffic = Record<string, [number, number]>;

/**
 * One push naming many more users than the 500 a push once went in, whose packages stand in every way a push meets:
 * each user's bytes must land exactly, once, on their running package alone.
 */
describe.each(DATABASES)('a push of many users on %s', (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let nodes: Awaited<ReturnType<typeof addNodes>>;

  beforeAll(async () => {
    app = await startTestApp({ database });
    seeded = await seedCatalog(app);
    nodes = await addNodes(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Accounts made straight in the database: many are needed, and signing up is not what is tested. */
  async function insertUsers(count: number, tag: string): Promise<number[]> {
    const rows = await app.app.db
      .insertInto('users')
      .values(
        Array.from({ length: count }, (_, i) => ({
          email: `${tag}${i}.${database}@example.com`,
          name: `${tag} ${i}`,
          password_hash: 'not-a-hash',
          invite_code: null,
          uuid: randomUUID(),
          banned: 0,
          created_at: app.clock.now(),
        })),
      )
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Each user orders the package and pays it in the sandbox, through the services, a few at a time. */
  async function buy(userIds: number[], pkgId: number) {
    for (let start = 0; start < userIds.length; start += 25) {
      await Promise.all(
        userIds.slice(start, start + 25).map(async (userId) => {
          const no = await app.app.orders.create(userId, { pkgId, currency: 'USD', force: true });
          await app.app.payments.sandbox(userId, no, 'approve');
        }),
      );
    }
  }

  const packagesOf = (userIds: number[]) =>
    app.app.db
      .selectFrom('user_packages')
      .select(['user_id', 'plan_group', 'upload_used', 'download_used', 'traffic_used', 'period'])
      .select(['starts_at', 'ends_at', 'ended_at', 'days'])
      .where('user_id', 'in', userIds)
      .orderBy('user_id')
      .orderBy('starts_at')
      .orderBy('id')
      .execute();

  it('counts every user exactly: new periods renewed, used-up allowances ended, queues moved up', {
    timeout: 120_000,
  }, async () => {
    // The Reality node counts 1.5 times the bytes; every amount below is even, so that each count is exact.
    const node = nodes.find((candidate) => candidate.rate === 1.5)!;
    const push = async (traffic: Traffic) => {
      const { status, body } = await agent(app, node).push(traffic);
      expect({ status, body }).toEqual({ status: 200, body: { data: true } });
    };

    // A durational package in its second 30-day period: its first period's bytes are no longer counted.
    const renewing = await insertUsers(250, 'renewing');
    await buy(renewing, seeded.quarterly);
    await push(Object.fromEntries(renewing.map((id, i) => [id, [2 * (10 + i), 2 * (20 + i)]])));
    app.clock.advance(31 * DAY);
    // A running traffic package, every other one with a durational package queued behind it.
    const counting = await insertUsers(300, 'counting');
    await buy(counting, seeded.traffic30);
    const queuedBehind = counting.filter((_, i) => i % 2 === 0);
    await buy(queuedBehind, seeded.monthly);
    // A traffic package this push uses up, with a package queued behind it that must start at once.
    const usingUp = await insertUsers(150, 'usingup');
    await buy(usingUp, seeded.traffic30);
    await buy(usingUp, seeded.quarterly);
    // A durational package this push uses up: it keeps running, but its user leaves the nodes' lists.
    const exhausting = await insertUsers(50, 'exhausting');
    await buy(exhausting, seeded.monthly);
    const before = await packagesOf([...counting, ...usingUp]);

    const traffic: Traffic = {};
    renewing.forEach((id, i) => {
      traffic[id] = [2 * (500 + i), 2 * (700 + i)];
    });
    counting.forEach((id, i) => {
      traffic[id] = [2 * (1000 + i), 2 * (3000 + i)];
    });
    usingUp.forEach((id, i) => {
      traffic[id] = [40 * GIB + 2 * i, 30 * GIB];
    });
    exhausting.forEach((id, i) => {
      traffic[id] = [80 * GIB, 60 * GIB + 2 * i];
    });
    // Users with nothing running (none exists with these ids): their bytes count nowhere.
    for (let id = 900_000_000; id < 900_001_000; id++) traffic[id] = [2, 2];
    expect(Object.keys(traffic)).toHaveLength(1750);

    const version = await app.app.subscriptions.usersVersion();
    const pushedAt = app.clock.now();
    await push(traffic);
    const doneAt = app.clock.now();
    expect(await app.app.subscriptions.usersVersion()).not.toBe(version);

    const counted = (id: number) => {
      const [upload, download] = traffic[id]!;
      return { upload_used: upload * 1.5, download_used: download * 1.5, traffic_used: (upload + download) * 1.5 };
    };
    const after = await packagesOf([...renewing, ...counting, ...usingUp, ...exhausting]);
    const packagesOfUser = (rows: typeof after, id: number) => rows.filter((pkg) => pkg.user_id === id);
    for (const id of renewing) {
      expect(packagesOfUser(after, id), `renewing ${id}`).toMatchObject([
        { ...counted(id), period: 1, ended_at: null },
      ]);
    }
    for (const id of counting) {
      // The running package counts; the one queued behind it (every other user) is left as it was.
      const expected = packagesOfUser(before, id).map((pkg, index) => (index === 0 ? { ...pkg, ...counted(id) } : pkg));
      expect(expected, `counting ${id}`).toHaveLength(queuedBehind.includes(id) ? 2 : 1);
      expect(packagesOfUser(after, id), `counting ${id}`).toEqual(expected);
    }
    for (const id of usingUp) {
      const [ended, started] = packagesOfUser(after, id);
      expect(ended, `using up ${id}`).toMatchObject({ ...counted(id), plan_group: 'traffic', ended_at: null });
      expect(ended!.ends_at).toBeGreaterThanOrEqual(pushedAt);
      expect(ended!.ends_at).toBeLessThanOrEqual(doneAt);
      expect(started).toMatchObject({ plan_group: 'durational', traffic_used: 0, starts_at: ended!.ends_at });
      expect(started!.ends_at - started!.starts_at).toBe(started!.days * DAY);
    }
    for (const id of exhausting) {
      const [pkg] = packagesOfUser(after, id);
      expect(pkg, `exhausting ${id}`).toMatchObject({ ...counted(id), plan_group: 'durational', ended_at: null });
      expect(pkg!.ends_at).toBeGreaterThan(doneAt);
    }

    const { body } = await agent(app, node).users();
    const listed = new Set((body.users as Array<{ id: number }>).map((user) => user.id));
    for (const id of [...renewing, ...counting, ...usingUp]) expect(listed.has(id), `listed ${id}`).toBe(true);
    for (const id of exhausting) expect(listed.has(id), `listed ${id}`).toBe(false);
  });

  it('holds a count past 2^53 bytes, as the most a node may push times its highest rate makes, at 2^53 - 1', async () => {
    const [id] = await insertUsers(1, 'huge');
    await buy([id!], seeded.traffic30);
    const added = await app.app.nodes.add({
      names: { en: 'Rated', 'pt-BR': 'Rated', 'zh-Hans': 'Rated' },
      labels: [],
      rate: 100,
      protocol: 'trojan',
      host: 'rated.example.com',
      port: 443,
      settings: { network: 'tcp', tls: 'tls' },
    });
    const pushed = await agent(app, { ...added, protocol: 'trojan' }).push({ [id!]: [2 ** 50, 1000] });
    expect(pushed.body).toEqual({ data: true });
    const [row] = await packagesOf([id!]);
    expect(row).toMatchObject({ upload_used: Number.MAX_SAFE_INTEGER, download_used: 100_000 });
  });

  it('counts on the live package that started first, then on the lowest id, when several overlap', async () => {
    const node = nodes.find((candidate) => candidate.rate === 1)!;
    // Packages never overlap through the app's own calls: they are moved by hand here, to pin down which one counts.
    const [earliest, tied] = await insertUsers(2, 'overlap');
    const now = app.clock.now();
    const starts = {
      [earliest!]: [now - DAY, now - 2 * DAY, now - 2 * DAY],
      [tied!]: [now - DAY, now - DAY, now - DAY],
    };
    for (const id of [earliest!, tied!]) {
      await buy([id], seeded.traffic30);
      await buy([id], seeded.other90);
      await buy([id], seeded.quarterly);
      const rows = await app.app.db
        .selectFrom('user_packages')
        .select('id')
        .where('user_id', '=', id)
        .orderBy('id')
        .execute();
      expect(rows).toHaveLength(3);
      for (const [index, row] of rows.entries()) {
        await app.app.db
          .updateTable('user_packages')
          .set({ starts_at: starts[id]![index]!, ends_at: now + 10 * DAY })
          .where('id', '=', row.id)
          .execute();
      }
    }
    const pushed = await agent(app, node).push({ [earliest!]: [100, 200], [tied!]: [1000, 2000] });
    expect(pushed.body).toEqual({ data: true });
    const used = async (id: number) =>
      (
        await app.app.db
          .selectFrom('user_packages')
          .select('traffic_used')
          .where('user_id', '=', id)
          .orderBy('id')
          .execute()
      ).map((row) => row.traffic_used);
    // The second bought started first; of three started at once, the first bought.
    expect(await used(earliest!)).toEqual([0, 300, 0]);
    expect(await used(tied!)).toEqual([3000, 0, 0]);
  });
});
