import { sql } from 'kysely';
import { openDatabase } from '../db/database.js';
import type { TestApp } from './test-app.js';

/**
 * Holds a customer's row from a connection of its own, as a payment's activation does until it commits; `release`
 * commits and closes it. PostgreSQL only: on SQLite the held write lock would stall the test's own process, as
 * better-sqlite3 waits for a lock synchronously.
 */
export async function holdCustomer(app: TestApp, userId: number): Promise<{ release(): Promise<void> }> {
  const { schema } = app.installation;
  const other = openDatabase(app.config.databaseUrl, schema ? { searchPath: schema } : {}).db;
  let letGo = () => {};
  const released = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  let held = () => {};
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const holder = other.transaction().execute(async (tx) => {
    await sql`update users set banned = banned where id = ${userId}`.execute(tx);
    held();
    await released;
  });
  await Promise.race([holding, holder]);
  return {
    async release() {
      letGo();
      await holder.finally(() => other.destroy());
    },
  };
}

/** Whether the promise has settled within `ms`. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  const watched = promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await Promise.race([watched, new Promise((resolve) => setTimeout(resolve, ms))]);
  return settled;
}
