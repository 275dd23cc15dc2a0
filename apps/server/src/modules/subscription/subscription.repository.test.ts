import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { orderRow, packageRow } from '../../test/rows.js';
import { POSTGRES_URL, startTestApp, type TestApp } from '../../test/test-app.js';
import { SubscriptionRepository } from './subscription.repository.js';

const NOW = Date.UTC(2026, 0, 15);
const DAY = 24 * 3600_000;

/** Links looked up at once, each for the first time: on PostgreSQL they are read together (`BatchedLookup`). */
describe.runIf(POSTGRES_URL)('links read together on PostgreSQL', () => {
  let server: TestApp;
  let seeded: SeededCatalog;
  beforeAll(async () => {
    server = await startTestApp({ database: 'postgres' });
    seeded = await seedCatalog(server);
  });
  afterAll(() => server.close());

  type DbOf = ReturnType<typeof openDatabase>['db'];
  /** One connection, so that its prepared statements can be seen (they are the connection's own). */
  const onOneConnection = async (work: (repository: SubscriptionRepository, db: DbOf) => Promise<void>) => {
    const { db } = openDatabase(POSTGRES_URL!, { searchPath: server.installation.schema!, poolSize: 1 });
    try {
      await work(new SubscriptionRepository(db), db);
    } finally {
      await db.destroy();
    }
  };

  /** Customers with a link each, every second one with a package running at NOW. */
  const addCustomers = async (db: DbOf, count: number, prefix: string) => {
    const users = await db
      .insertInto('users')
      .values(
        Array.from({ length: count }, (_, index) => ({
          email: `${prefix}${index}@example.com`,
          name: prefix,
          password_hash: 'x',
          uuid: crypto.randomUUID(),
          created_at: 0,
          sub_token_hash: `${prefix}-link-${index}`,
        })),
      )
      .returning(['id', 'sub_token_hash'])
      .execute();
    const withPackage = users.filter((_, index) => index % 2 === 0);
    const orders = await db
      .insertInto('orders')
      .values(withPackage.map(({ id }) => orderRow(seeded, { userId: id, no: `${prefix}-order-${id}` })))
      .returning(['id', 'user_id'])
      .execute();
    await db
      .insertInto('user_packages')
      .values(
        orders.map((order) => ({
          ...packageRow(seeded, { userId: order.user_id, orderId: order.id }),
          starts_at: NOW - DAY,
          ends_at: NOW + DAY,
        })),
      )
      .execute();
    return users.map((user, index) => ({ id: user.id, link: user.sub_token_hash!, withPackage: index % 2 === 0 }));
  };

  it('finds each link’s own customer in batches of every size, the unknown ones none', async () => {
    await onOneConnection(async (repository, db) => {
      const customers = await addCustomers(db, 40, 'sizes');
      let offset = 0;
      // With the unknown link, 1, 2 and 4 links fill their statements' slots; 3, 5, 9 and 17 leave slots that the
      // last link fills again.
      for (const size of [0, 1, 3, 2, 4, 8, 16]) {
        const batch = customers.slice(offset, offset + size);
        offset += size;
        const found = await Promise.all([
          ...batch.map((customer) => repository.findSubscriberByTokenHash(customer.link, NOW)),
          repository.findSubscriberByTokenHash(`unknown-${size}`, NOW),
        ]);
        expect(found.at(-1)).toBeUndefined();
        batch.forEach((customer, index) => {
          const subscriber = found[index]!;
          expect(subscriber.id).toBe(customer.id);
          expect(subscriber.running !== undefined).toBe(customer.withPackage);
        });
      }
    });
  });

  it('runs prepared statements whose plans PostgreSQL keeps, rather than planning each run', async () => {
    await onOneConnection(async (repository, db) => {
      // Three unknown links at a time (never kept): a statement of four slots, run ten times.
      for (let run = 0; run < 10; run++) {
        const found = await Promise.all(
          [1, 2, 3].map((link) => repository.findSubscriberByTokenHash(`plan-${run}-${link}`, NOW)),
        );
        expect(found).toEqual([undefined, undefined, undefined]);
      }
      const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
        select statement, generic_plans, custom_plans from pg_prepared_statements
        where statement like '%"sub_token_hash" in (%'`.execute(db);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.statement).toContain('$6)'); // two times, then four links
      // PostgreSQL plans a statement's first five runs for their values, then keeps a generic plan when it costs no
      // more: each later run reuses it.
      expect(Number(rows[0]!.custom_plans)).toBe(5);
      expect(Number(rows[0]!.generic_plans)).toBe(5);
    });
  });
});
