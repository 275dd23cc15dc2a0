/**
 * Fills a fresh database (SQLite or PostgreSQL, through the app's own migrations and services) with a large
 * installation: users who each paid for a running package, a one-plan catalogue, and nodes with real tokens.
 * Bulk rows go in with multi-row inserts inside one transaction, so that 100,000 users take seconds.
 */
import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import type { Database } from '../apps/server/src/db/schema.js';
import { GIB } from '../apps/server/src/lib/units.js';
import { createCatalogService } from '../apps/server/src/modules/catalog/catalog.service.js';
import { createNodesService } from '../apps/server/src/modules/nodes/nodes.service.js';
import { createSubscriptionService } from '../apps/server/src/modules/subscription/subscription.service.js';
import { MemoryStore } from '../apps/server/src/plugins/app/store.js';
import { NODE_SPECS } from '../apps/server/src/test/node-specs.js';

const DAY = 24 * 3600_000;
/** Rows per INSERT: 16 columns × 1,000 stays under SQLite's 32,766 parameters and PostgreSQL's 65,535. */
const ROWS_PER_INSERT = 1000;
export const PACKAGE_BYTES = 100 * GIB;
export const PASSWORD = 'Bench2024pass';

export type SeedOptions = {
  users: number;
  nodes: number;
  /** How many users get a subscription link (`SubscriptionService.link`), for the feed requests. */
  links: number;
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

  // The catalogue through its service: one currency, one traffic plan, one package of 100 GB for 30 days.
  const catalog = createCatalogService(db, clock);
  await catalog.addCurrency('USD', 'US Dollar', 2, 0);
  const planNames = names('Traffic 100');
  const planId = await catalog.addPlan({ group: 'traffic', names: planNames, contents: names('<p>100 GB</p>') });
  const packageLabel = '100 GB / 30 days';
  const packageId = (await catalog.addPackage(planId, {
    label: packageLabel,
    days: 30,
    trafficBytes: PACKAGE_BYTES,
    prices: [{ currency: 'USD', price_minor: 599, real_minor: 499 }],
  }))!;

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

      const orders = await tx
        .insertInto('orders')
        .values(
          ids.map((userId) => ({
            // The order number's shape (14-digit UTC stamp + 10 digits), unique by the user id.
            no: `20260101000000${String(userId).padStart(10, '0')}`,
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
            status: 'success',
            gateway: 'sandbox',
            created_at: startsAt,
            updated_at: startsAt,
            due_at: startsAt + 1800_000,
          })),
        )
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
  return { userIds, nodes, feedTokens };
}
