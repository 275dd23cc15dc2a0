/**
 * Fills a fresh database (SQLite or PostgreSQL, through the app's own migrations and services) with a large
 * installation: users who each paid for a running package and once gave up an order (two orders a user), a catalogue
 * of 20 plans, nodes with real tokens, and live sessions for the customer calls. Bulk rows go in with multi-row
 * inserts inside one transaction, so that 100,000 users take seconds.
 */
import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { type Kysely, sql } from 'kysely';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import type { Database } from '../apps/server/src/db/schema.js';
import { hashToken, newToken } from '../apps/server/src/lib/secrets.js';
import { GIB } from '../apps/server/src/lib/units.js';
import { createCatalogService } from '../apps/server/src/modules/catalog/catalog.service.js';
import { createNodesService } from '../apps/server/src/modules/nodes/nodes.service.js';
import { createSubscriptionService } from '../apps/server/src/modules/subscription/subscription.service.js';
import { MemoryStore } from '../apps/server/src/plugins/app/store.js';
import { NODE_SPECS } from '../apps/server/src/test/node-specs.js';

const DAY = 24 * 3600_000;
/** Rows per INSERT: 17 columns × 1,000 stays under SQLite's 32,766 parameters and PostgreSQL's 65,535. */
const ROWS_PER_INSERT = 1000;
/** Plans in the catalogue, half traffic and half durational, each with two packages. */
const PLANS = 20;
export const PACKAGE_BYTES = 100 * GIB;
export const PASSWORD = 'Bench2024pass';

export type SeedOptions = {
  users: number;
  nodes: number;
  /** How many users get a subscription link (`SubscriptionService.link`), for the feed requests. */
  links: number;
  /** How many users get a live session, for the customer calls. */
  sessions: number;
  publicUrl: string;
  now?: number;
  /** Progress lines. */
  log?: (line: string) => void;
};

export type SeededNode = { id: number; token: string; protocol: string; rate: number };

export type Seeded = {
  /** The users' ids, in the order they were made. */
  userIds: number[];
  nodes: SeededNode[];
  /** Subscription tokens (the last path segment of each link), one per linked user. */
  feedTokens: string[];
  /** Live sessions of the first users: the token their `Authorization` header carries and one of their orders. */
  sessions: Array<{ token: string; orderNo: string }>;
  /** Every user's email; their password is PASSWORD. */
  emails: string[];
};

const names = (en: string) => ({ en, 'pt-BR': `${en} (pt)`, 'zh-Hans': `${en} (zh)` });

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** Migrates the (empty) database and seeds it; returns what the benchmark needs to call the app as its clients do. */
export async function seed(db: Kysely<Database>, options: SeedOptions): Promise<Seeded> {
  const now = options.now ?? Date.now();
  const clock = () => now;
  const log = options.log ?? (() => {});
  await migrateToLatest(db as Kysely<unknown>);

  // The catalogue through its service: one currency and PLANS plans of two packages each. Every user's paid order
  // is for the first package; the others make the catalogue as long as a real one.
  const catalog = createCatalogService(db, clock);
  await catalog.addCurrency('USD', 'US Dollar', 2, 0);
  let planNames = names('Traffic 1');
  let planId = 0;
  let packageId = 0;
  const packageLabel = '100 GB / 30 days';
  for (let n = 1; n <= PLANS; n++) {
    const group = n % 2 ? ('traffic' as const) : ('durational' as const);
    const planNamesN = names(`${group === 'traffic' ? 'Traffic' : 'Unlimited'} ${n}`);
    const id = await catalog.addPlan({ group, names: planNamesN, contents: names(`<p>Plan ${n}: <b>fast</b></p>`) });
    for (const days of [30, 90]) {
      const added = (await catalog.addPackage(id, {
        label: days === 30 ? packageLabel : '300 GB / 90 days',
        days,
        trafficBytes: (PACKAGE_BYTES * days) / 30,
        prices: [{ currency: 'USD', price_minor: 599 * (days / 30), real_minor: 499 * (days / 30) }],
      }))!;
      if (n === 1 && days === 30) [planNames, planId, packageId] = [planNamesN, id, added];
    }
  }

  // One argon2id hash for everyone: hashing 100,000 passwords would take minutes and measure nothing here.
  const passwordHash = await hash(PASSWORD);
  const startsAt = now - DAY;
  const userIds: number[] = [];
  await db.transaction().execute(async (tx) => {
    for (const batch of chunks(
      Array.from({ length: options.users }, (_, i) => i + 1),
      ROWS_PER_INSERT,
    )) {
      const users = await tx
        .insertInto('users')
        .values(
          batch.map((n) => ({
            email: `bench${n}@example.com`,
            name: `bench${n}`,
            password_hash: passwordHash,
            uuid: randomUUID(),
            created_at: startsAt - DAY,
          })),
        )
        .returning(['id', 'email'])
        .execute();
      // RETURNING promises no order: match the rows back by email.
      const byEmail = new Map(users.map((row) => [row.email, row.id]));
      const ids = batch.map((n) => byEmail.get(`bench${n}@example.com`)!);
      userIds.push(...ids);

      // Two orders a user: the paid one behind the running package, and an older one left to time out.
      const order = (userId: number, paid: boolean) => ({
        // The order number's shape (14-digit UTC stamp + 10 digits), unique by the user id and the day.
        no: `202601${paid ? '02' : '01'}000000${String(userId).padStart(10, '0')}`,
        user_id: userId,
        plan_id: planId,
        package_id: packageId,
        plan_names: JSON.stringify(planNames),
        package_label: packageLabel,
        plan_group: 'traffic' as const,
        days: 30,
        traffic_bytes: PACKAGE_BYTES,
        currency: 'USD',
        amount_minor: 499,
        decimals: 2,
        status: paid ? 'success' : 'timeout',
        gateway: paid ? 'sandbox' : null,
        created_at: paid ? startsAt : startsAt - DAY,
        updated_at: startsAt,
        due_at: (paid ? startsAt : startsAt - DAY) + 1800_000,
      });
      await tx
        .insertInto('orders')
        .values(ids.map((userId) => order(userId, false)))
        .execute();
      const orders = await tx
        .insertInto('orders')
        .values(ids.map((userId) => order(userId, true)))
        .returning(['id', 'user_id'])
        .execute();

      await tx
        .insertInto('user_packages')
        .values(
          orders.map((order) => ({
            user_id: order.user_id,
            order_id: order.id,
            plan_id: planId,
            package_id: packageId,
            plan_group: 'traffic' as const,
            traffic_total: PACKAGE_BYTES,
            days: 30,
            starts_at: startsAt,
            ends_at: startsAt + 30 * DAY,
            created_at: startsAt,
          })),
        )
        .execute();
      if (userIds.length % 20_000 === 0) log(`  ${userIds.length} users, orders and packages`);
    }
  });

  // Sessions as a login makes them: a random token, stored as its hash.
  const sessions = userIds.slice(0, options.sessions).map((userId) => ({
    userId,
    token: newToken(),
    orderNo: `20260102000000${String(userId).padStart(10, '0')}`,
  }));
  for (const batch of chunks(sessions, ROWS_PER_INSERT)) {
    await db
      .insertInto('sessions')
      .values(
        batch.map(({ userId, token }) => ({
          user_id: userId,
          token_hash: hashToken(token),
          created_at: now,
          expires_at: now + 30 * DAY,
        })),
      )
      .execute();
  }

  // Nodes through the nodes service, as the admin command line adds them: real tokens, stored hashed.
  const store = new MemoryStore(clock);
  const nodesService = createNodesService(db, store, clock);
  const nodes: SeededNode[] = [];
  for (let i = 0; i < options.nodes; i++) {
    const spec = NODE_SPECS[i % NODE_SPECS.length]!;
    // Rate 1 for all but every seventh node, so that pushes exercise the multiplication too.
    const rate = i % 7 === 6 ? 1.5 : 1;
    const { id, token } = await nodesService.add({
      names: names(`${spec.name} ${i + 1}`),
      labels: ['bench'],
      rate,
      protocol: spec.protocol,
      host: `node${i + 1}.example.com`,
      port: spec.port,
      settings: spec.settings,
      visible: true,
      sort: i,
    });
    nodes.push({ id, token, protocol: spec.protocol, rate });
  }

  // Subscription links through the service, so that their tokens are derived the app's way.
  const subscriptions = createSubscriptionService({ db, store, publicUrl: options.publicUrl, now: clock });
  const feedTokens: string[] = [];
  for (const userId of userIds.slice(0, options.links)) {
    const link = await subscriptions.link(userId);
    feedTokens.push(link.slice(link.lastIndexOf('/') + 1));
  }
  await store.close();
  return {
    userIds,
    nodes,
    feedTokens,
    sessions: sessions.map(({ token, orderNo }) => ({ token, orderNo })),
    emails: userIds.map((_, i) => `bench${i + 1}@example.com`),
  };
}

/**
 * PostgreSQL: vacuums and analyzes every table of the connection's schema, as autovacuum keeps a live database (a
 * bulk load's tables have no statistics yet, and rows updated again and again leave dead versions behind). Returns
 * how many tables.
 */
export async function vacuumTables(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables
    where schemaname = current_schema()`.execute(db);
  for (const { name } of rows) await sql`vacuum analyze ${sql.table(name)}`.execute(db);
  return rows.length;
}

/** PostgreSQL: whether the server runs autovacuum (some test machines' servers do not). */
export async function autovacuumIsOn(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ autovacuum: string }>`show autovacuum`.execute(db);
  return rows[0]?.autovacuum === 'on';
}
