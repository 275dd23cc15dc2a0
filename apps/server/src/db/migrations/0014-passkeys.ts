import type { Kysely } from 'kysely';
import { idColumn, timestampColumn } from '../column-types.js';

/** Operators' passkeys (WebAuthn credentials), a second factor beside or instead of the authenticator app. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operator_passkeys')
    .addColumn('id', idColumn(db), (c) => c.primaryKey())
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    // The authenticator's credential id, base64url: one credential belongs to one operator.
    .addColumn('credential_id', 'varchar(1024)', (c) => c.notNull().unique())
    // The COSE public key, base64url.
    .addColumn('public_key', 'text', (c) => c.notNull())
    // The signature counter last seen: an assertion must raise it (when the authenticator keeps one).
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    // Comma-separated transports the browser reported (usb, internal, hybrid…), handed back as hints.
    .addColumn('transports', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', timestampColumn, (c) => c.notNull())
    .addColumn('last_used_at', timestampColumn)
    .execute();
  await db.schema.createIndex('operator_passkeys_operator').on('operator_passkeys').column('operator_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operator_passkeys').execute();
}
