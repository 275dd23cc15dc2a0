import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { type Dialect, openDatabase, pingDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { Database } from '../../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dialect: Dialect;
    /** Throws when the database does not answer. */
    pingDatabase(): Promise<void>;
  }
}

export type DbOptions = { databaseUrl: string; queryTimeoutMs: number; searchPath?: string | undefined };

/**
 * Opens the database, brings its schema up to date, and closes it last on shutdown. In a cluster the primary has
 * migrated before forking the workers (`cluster.ts`), whose migration then finds nothing to do.
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
    fastify.addHook('onClose', async () => {
      await db.destroy();
    });
  },
  { name: 'db' },
);
