/**
 * Fills a database the app has migrated (and given its demo catalogue) with a large installation, straight through
 * SQL on the app's schema: customers who each bought the catalogue's first package and have it running (a paid order
 * and an older one left to time out), a subscription link each, live sessions for a tenth of them, and nodes of every
 * protocol with their agents' tokens. Multi-row inserts in one transaction, so that 100,000 customers take seconds.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Database } from '../apps/server/src/db/schema.js';
import { hashToken } from '../apps/server/src/lib/secrets.js';
import { ss2022KeyLength } from '../apps/server/src/modules/nodes/node-settings.js';
import { NODE_SPECS } from '../apps/server/src/test/node-specs.js';

const DAY = 24 * 3600_000;
/** Rows per INSERT: 17 columns × 1,000 stays under SQLite's 32,766 bound values and PostgreSQL's 65,535. */
const ROWS_PER_INSERT = 1000;
/** One customer in this many has the panel open (a live session) for the customer calls. */
const CUSTOMERS_PER_SESSION = 10;

export type SeededNode = { id: number; token: string; protocol: string; rate: number };

export type Seeded = {
  /** Customer ids, in the order they were made. */
  customerIds: number[];
  /** Each customer's subscription token (the last segment of the link), in the same order. */
  feedTokens: string[];
  /** The `Authorization` token of each live session, its customer's index, and the number of the customer's order. */
  sessions: Array<{ token: string; customer: number; orderNo: string }>;
  nodes: SeededNode[];
};

const localized = (en: string) => JSON.stringify({ en, 'pt-BR': `${en} (pt)`, 'zh-Hans': `${en} (zh)` });
/** A token of the app's shape: 256 random bits, base64url (43 characters, as a subscription link's). */
const newToken = () => randomBytes(32).toString('base64url');

function* batches(count: number): Generator<number[]> {
  for (let start = 0; start < count; start += ROWS_PER_INSERT) {
    yield Array.from({ length: Math.min(ROWS_PER_INSERT, count - start) }, (_, i) => start + i);
  }
}

export async function seed(
  db: Kysely<Database>,
  { customers, nodes }: { customers: number; nodes: number },
): Promise<Seeded> {
  const now = Date.now();
  const startsAt = now - DAY;
  // The package every customer bought: the first of the demo catalogue, in its first currency.
  const bought = await db
    .selectFrom('packages')
    .innerJoin('plans', 'plans.id', 'packages.plan_id')
    .innerJoin('package_prices', 'package_prices.package_id', 'packages.id')
    .innerJoin('currencies', 'currencies.code', 'package_prices.currency')
    .select([
      'packages.id as packageId',
      'packages.label',
      'packages.days',
      'packages.traffic_bytes as trafficBytes',
      'plans.id as planId',
      'plans.names',
      'plans.plan_group as group',
      'package_prices.currency',
      'package_prices.real_minor as amount',
      'currencies.decimals',
    ])
    .orderBy('plans.sort')
    .orderBy('packages.sort')
    .orderBy('packages.id')
    .executeTakeFirst();
  if (!bought) throw new Error('the app made no demo catalogue on its first start (SEED_DEMO_CATALOG)');
  // PostgreSQL's bigint columns arrive as strings.
  const trafficBytes = Number(bought.trafficBytes);

  // One argon2id hash for everyone: hashing 100,000 passwords would take minutes and measure nothing here.
  const passwordHash = await hash(randomBytes(12).toString('base64url'));
  const customerIds: number[] = [];
  const feedTokens: string[] = [];
  await db.transaction().execute(async (tx) => {
    for (const batch of batches(customers)) {
      const tokens = batch.map(() => newToken());
      const rows = await tx
        .insertInto('users')
        .values(
          batch.map((n, i) => ({
            email: `bench${n}@example.com`,
            name: `bench${n}`,
            password_hash: passwordHash,
            uuid: randomUUID(),
            created_at: startsAt - DAY,
            // The app looks a link up by its token's hash; the nonce only says that the customer has one.
            sub_nonce: randomBytes(12).toString('base64url'),
            sub_token_hash: hashToken(tokens[i]!),
          })),
        )
        .returning(['id', 'email'])
        .execute();
      // RETURNING promises no order: matched back by email.
      const idOf = new Map(rows.map((row) => [row.email, Number(row.id)]));
      const ids = batch.map((n) => idOf.get(`bench${n}@example.com`)!);
      customerIds.push(...ids);
      feedTokens.push(...tokens);

      const order = (userId: number, paid: boolean) => ({
        no: orderNo(userId, paid),
        user_id: userId,
        plan_id: bought.planId,
        package_id: bought.packageId,
        plan_names: bought.names,
        package_label: bought.label,
        plan_group: bought.group,
        days: bought.days,
        traffic_bytes: trafficBytes,
        currency: bought.currency,
        amount_minor: Number(bought.amount),
        decimals: bought.decimals,
        status: paid ? 'success' : 'timeout',
        gateway: paid ? 'sandbox' : null,
        created_at: paid ? startsAt : startsAt - DAY,
        updated_at: startsAt,
        due_at: (paid ? startsAt : startsAt - DAY) + 1800_000,
      });
      await tx
        .insertInto('orders')
        .values(ids.map((id) => order(id, false)))
        .execute();
      const paid = await tx
        .insertInto('orders')
        .values(ids.map((id) => order(id, true)))
        .returning(['id', 'user_id'])
        .execute();
      await tx
        .insertInto('user_packages')
        .values(
          paid.map((row) => ({
            user_id: Number(row.user_id),
            order_id: Number(row.id),
            plan_id: bought.planId,
            package_id: bought.packageId,
            plan_group: bought.group,
            traffic_total: trafficBytes,
            days: bought.days,
            starts_at: startsAt,
            ends_at: startsAt + bought.days * DAY,
            created_at: startsAt,
          })),
        )
        .execute();
    }
  });

  // Sessions as a login makes them: a random token, stored as its hash.
  const sessions = Array.from({ length: Math.max(1, Math.floor(customers / CUSTOMERS_PER_SESSION)) }, (_, i) => {
    const customer = i * CUSTOMERS_PER_SESSION;
    return { token: newToken(), customer, orderNo: orderNo(customerIds[customer]!, true) };
  });
  for (const batch of batches(sessions.length)) {
    await db
      .insertInto('sessions')
      .values(
        batch.map((i) => ({
          user_id: customerIds[sessions[i]!.customer]!,
          token_hash: hashToken(sessions[i]!.token),
          created_at: now,
          expires_at: now + 30 * DAY,
        })),
      )
      .execute();
  }

  // Nodes as an operator configures them, one protocol after another, each with its agent's token.
  const seededNodes: SeededNode[] = [];
  for (let i = 0; i < nodes; i++) {
    const spec = NODE_SPECS[i % NODE_SPECS.length]!;
    const keyLength = ss2022KeyLength(spec.settings.cipher);
    // A Shadowsocks 2022 node's server key, drawn as the app draws it when a node is added.
    const settings = keyLength
      ? { ...spec.settings, serverKey: randomBytes(keyLength).toString('base64') }
      : spec.settings;
    const token = newToken();
    const rate = spec.rate ?? 1;
    const row = await db
      .insertInto('nodes')
      .values({
        names: localized(`${spec.name} ${i + 1}`),
        labels: 'bench',
        rate,
        protocol: spec.protocol,
        host: `node${i + 1}.example.com`,
        port: spec.port,
        settings: JSON.stringify(settings),
        visible: 1,
        sort: i,
        token_hash: hashToken(token),
        created_at: now - DAY,
        updated_at: now - DAY,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    seededNodes.push({ id: Number(row.id), token, protocol: spec.protocol, rate });
  }
  return { customerIds, feedTokens, sessions, nodes: seededNodes };
}

/** An order number of the app's shape (a 14-digit UTC stamp and 10 digits), unique by the customer. */
function orderNo(userId: number, paid: boolean): string {
  return `202601${paid ? '02' : '01'}000000${String(userId).padStart(10, '0')}`;
}

/**
 * An owner's API token, as an owner makes one in the console: the console's lists are measured with it (a script's
 * calls are answered as the console's are).
 */
export async function seedConsoleToken(db: Kysely<Database>): Promise<string> {
  const now = Date.now();
  const operator = await db
    .insertInto('operators')
    .values({
      email: 'bench-owner@example.com',
      password_hash: await hash(randomBytes(12).toString('base64url')),
      role: 'owner',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = newToken();
  await db
    .insertInto('api_tokens')
    .values({
      name: 'bench',
      token_hash: hashToken(token),
      role: 'owner',
      created_by: Number(operator.id),
      created_at: now,
    })
    .execute();
  return token;
}
