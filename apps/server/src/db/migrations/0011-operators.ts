import type { Kysely } from 'kysely';
import { idColumn, timestampColumn } from '../column-types.js';

/**
 * The operator console: operators (apart from customers, with a role and a second factor), their sessions (stored
 * hashed, ended when idle or revoked), their API tokens for scripts (hashed, with a role), and the audit log of every
 * change an operator makes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operators')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    // Set by `admin operator add` and an owner's reset: the first sign-in must choose a new password.
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(1))
    // Base32 TOTP secret once enrolled (confirmed by a first code); null before.
    .addColumn('totp_secret', 'varchar(64)')
    // The last TOTP time step accepted: a code is taken once.
    .addColumn('totp_last_step', 'bigint')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('operator_sessions')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    // 1 once the second factor was given (or enrolled): until then the session may only enrol or change the password.
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    .addColumn('last_seen_at', timestampColumn, (c) => c.notNull())
    .addColumn('expires_at', timestampColumn, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operator_sessions_operator').on('operator_sessions').column('operator_id').execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('operators.id'))
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    .addColumn('last_used_at', timestampColumn)
    .addColumn('revoked_at', timestampColumn)
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    // Who: an operator, or an API token (then `operator_id` is its maker and `token_id` names it).
    .addColumn('operator_id', 'integer', (c) => c.references('operators.id'))
    .addColumn('token_id', 'integer', (c) => c.references('api_tokens.id'))
    .addColumn('actor', 'varchar(254)', (c) => c.notNull())
    // What: e.g. `customer.ban`, on which kind of thing and which one.
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(64)', (c) => c.notNull())
    // JSON of the values the change touched, before and after (null where there was none).
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created').on('audit_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'target_id']).execute();
  await db.schema.createIndex('audit_log_operator').on('audit_log').columns(['operator_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['audit_log', 'api_tokens', 'operator_sessions', 'operators']) {
    await db.schema.dropTable(table).execute();
  }
}
