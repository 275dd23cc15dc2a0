import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { admin, adminDatabase, adminInProcess, expectFailure, jsonOf } from '../../test/admin-cli.js';
import { seedCatalog } from '../../test/catalog.js';
import { addNodes, customerWithPackage } from '../../test/subscription.js';
import { POSTGRES_URL, startTestApp, type TestApp } from '../../test/test-app.js';

/** Every table's rows, in a stable order, read through Kysely on any database. */
async function everyRow(db: Kysely<unknown>): Promise<Record<string, string[]>> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const content: Record<string, string[]> = {};
  for (const { name } of tables) {
    // biome-ignore lint/suspicious/noExplicitAny: the tables are listed at run time
    const rows = await (db as Kysely<any>).selectFrom(name).selectAll().execute();
    content[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return content;
}

describe('admin backup on sqlite', () => {
  let app: TestApp;
  let dir: string;

  beforeAll(async () => {
    app = await startTestApp();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-backup-'));
  });
  afterAll(async () => {
    await app?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('takes a consistent copy while the server serves, and the copy holds every row', { timeout: 60_000 }, async () => {
    const seeded = await seedCatalog(app);
    const customers = [];
    for (let i = 0; i < 3; i++)
      customers.push(await customerWithPackage(app, `backup${i}@example.com`, seeded.traffic30));
    const extra = await customers[0]!.api.post('/mutenet/user/order/create', {
      form: { pkgId: String(seeded.monthly), currency: 'USD', force: '1' },
      token: customers[0]!.token,
    });
    expect(extra.body.code).toBe(0);
    await addNodes(app);

    const file = path.join(dir, 'mutenet.backup.db');
    // The server keeps answering while the command (a process of its own) copies the database.
    let running = true;
    const statuses: number[] = [];
    const serving = (async () => {
      while (running) {
        for (const customer of customers) {
          statuses.push((await customer.api.get('/mutenet/user/orders', { token: customer.token })).status);
        }
      }
    })();
    const run = await admin(app.config.databaseUrl, 'backup', file, '--json');
    running = false;
    await serving;
    expect(jsonOf(run)).toEqual({ file, bytes: (await fs.stat(file)).size });
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const restored = openDatabase(`sqlite:${file}`);
    try {
      await migrateToLatest(restored.db as Kysely<unknown>);
      const original = await everyRow(app.app.db as Kysely<unknown>);
      const copy = await everyRow(restored.db as Kysely<unknown>);
      expect(Object.keys(copy).sort()).toEqual(Object.keys(original).sort());
      for (const table of ['users', 'orders', 'user_packages', 'plans', 'packages', 'nodes', 'currencies']) {
        expect(original[table]?.length, table).toBeGreaterThan(0);
      }
      for (const table of Object.keys(original)) expect(copy[table], table).toEqual(original[table]);
    } finally {
      await restored.db.destroy();
    }
  });

  it('refuses an existing FILE unless --force, and bad arguments', async () => {
    const url = app.config.databaseUrl;
    const file = path.join(dir, 'existing.db');
    await fs.writeFile(file, 'not a database');
    expectFailure(await adminInProcess(url, ['backup', 'create', file]), 1, /exists: give --force/);
    expect(await fs.readFile(file, 'utf8')).toBe('not a database');
    const forced = jsonOf(await adminInProcess(url, ['backup', 'create', file, '--force', '--json']));
    expect(forced.file).toBe(file);
    const copy = openDatabase(`sqlite:${file}`);
    try {
      expect((await copy.db.selectFrom('users').select('id').execute()).length).toBeGreaterThan(0);
    } finally {
      await copy.db.destroy();
    }
    expectFailure(await adminInProcess(url, ['backup', 'create']), 2, /missing FILE/);
    expectFailure(await adminInProcess(url, ['backup', 'create', 'a.db', 'b.db']), 2, /unexpected argument/);
    expectFailure(
      await adminInProcess(url, ['backup', 'create', path.join(dir, 'no', 'such', 'x.db')]),
      1,
      /does not exist/,
    );
    const leftovers = (await fs.readdir(dir)).filter((name) => name.endsWith('.partial'));
    expect(leftovers).toEqual([]);
  });
});

describe.runIf(POSTGRES_URL)('admin backup on postgres', () => {
  it('points to pg_dump', async () => {
    const db = await adminDatabase('postgres');
    try {
      const run = await adminInProcess(db.url, ['backup', 'create', path.join(os.tmpdir(), 'never.db')]);
      expectFailure(run, 1, /pg_dump/);
    } finally {
      await db.drop();
    }
  });
});
