import type { Generated } from 'kysely';

/** Times are epoch milliseconds in integer columns, the same on SQLite and PostgreSQL. */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  invite_code: string | null;
  /** The proxy credential nodes receive. */
  uuid: string;
  /** 0 or 1 */
  banned: Generated<number>;
  created_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the opaque token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
}
