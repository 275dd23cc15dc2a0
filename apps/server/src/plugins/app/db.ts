import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { type ChangeFeed, PostgresChangeFeed, UNHEARD } from '../../db/change-feed.js';
import { type Dialect, openDatabase, pingDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { Database } from '../../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dialect: Dialect;
    /** The changes the database reports as they are committed (PostgreSQL); on SQLite, none. */
    dbChanges: ChangeFeed;
    /** Throws when the database does not answer. */
    pingDatabase(): Promise<void>;
  }
}

export type DbOptions = { databaseUrl: string; queryTimeoutMs: number; searchPath?: string | undefined };

/**
 * Opens the database, brings its schema up to date, and closes it last on shutdown. On PostgreSQL, also listens to
 * the changes its triggers report (migration 0005), for what instances keep in memory.
 */
export default fp<DbOptions>(
  async (fastify, { databaseUrl, queryTimeoutMs, searchPath }) => {
    const { db, dialect } = openDatabase(databaseUrl, { queryTimeoutMs, ...(searchPath ? { searchPath } : {}) });
    try {
      await migrateToLatest(db as Kysely<unknown>);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    fastify.decorate('db', db);
    fastify.decorate('dialect', dialect);
    fastify.decorate('pingDatabase', () => pingDatabase(db));
    const changes = dialect === 'postgres' ? new PostgresChangeFeed(databaseUrl, { searchPath }) : undefined;
    fastify.decorate('dbChanges', changes ?? UNHEARD);
    fastify.addHook('onClose', async () => {
      await changes?.close();
      await db.destroy();
    });
  },
  { name: 'db' },
);
