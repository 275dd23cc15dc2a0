import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { type ChangeFeed, PostgresChangeFeed, SqliteChangeFeed } from '../../db/change-feed.js';
import { type Dialect, openDatabase, pingDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { Database } from '../../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dialect: Dialect;
    /** The changes the database reports as they are committed, for what the app keeps in memory. */
    dbChanges: ChangeFeed;
    /** Throws when the database does not answer. */
    pingDatabase(): Promise<void>;
  }
}

export type DbOptions = { databaseUrl: string; queryTimeoutMs: number; searchPath?: string | undefined };

/**
 * Opens the database, brings its schema up to date, and closes it last on shutdown; follows the changes it reports
 * (`db/change-feed.ts`), for what the app keeps in memory.
 */
export default fp<DbOptions>(
  async (fastify, { databaseUrl, queryTimeoutMs, searchPath }) => {
    const { db, dialect, sqlite } = openDatabase(databaseUrl, {
      queryTimeoutMs,
      ...(searchPath ? { searchPath } : {}),
    });
    try {
      await migrateToLatest(db as Kysely<unknown>);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    fastify.decorate('db', db);
    fastify.decorate('dialect', dialect);
    fastify.decorate('pingDatabase', () => pingDatabase(db));
    const postgresChanges = sqlite ? undefined : new PostgresChangeFeed(databaseUrl, { searchPath });
    // After the migrations: the SQLite feed's triggers are on the tables.
    const changes: ChangeFeed = postgresChanges ?? new SqliteChangeFeed(sqlite!);
    fastify.decorate('dbChanges', changes);
    // PostgreSQL's feed goes and comes with its connection: each time is worth a line (SQLite's never goes), but for
    // its end when the app closes.
    let closing = false;
    postgresChanges?.onReset(() => {
      if (closing) return;
      if (postgresChanges.live) fastify.log.info("the database's changes are heard: reads are kept in memory");
      else fastify.log.warn("the database's changes are not heard: every read goes to the database until they are");
    });
    fastify.metrics.gauge(
      'mutenet_db_changes_heard',
      "1 while the database's changes are heard, so that reads may be kept in memory; 0: every read goes to the database.",
      async () => (changes.live ? 1 : 0),
    );
    fastify.addHook('onClose', async () => {
      closing = true;
      await postgresChanges?.close();
      await db.destroy();
    });
  },
  { name: 'db', dependencies: ['metrics'] },
);
