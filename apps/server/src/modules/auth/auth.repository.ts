import { type Kysely, sql } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';

export type UserRow = {
  id: number;
  email: string;
  name: string;
  password_hash: string;
  banned: number;
};

export type NewUser = { email: string; name: string; passwordHash: string; inviteCode: string | null; uuid: string };

export type SessionUser = { id: number; email: string };

/** An account as the operator sees it: no password hash. */
export type AccountRow = { id: number; email: string; name: string; banned: number; created_at: number };

/** Customers matching a search, newest first, older than `beforeId` when given. */
export type AccountSearch = {
  /** Lower case: found anywhere in the email or the name (any case). */
  contains?: string;
  /** The customer with this id, too. */
  id?: number;
  bannedOnly?: boolean;
  beforeId?: number;
  limit: number;
};

/** A customer's sign-in session as the operator sees it: never the token's hash. */
export type SessionRow = { id: number; created_at: number; expires_at: number };

const ACCOUNT_COLUMNS = ['id', 'email', 'name', 'banned', 'created_at'] as const;

/** A LIKE pattern that matches `text` anywhere, with its own `%`, `_` and `\` taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

export class AuthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The same repository in the caller's transaction. */
  with(tx: Kysely<Database>): AuthRepository {
    return new AuthRepository(tx);
  }

  findUserByEmail(email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'email', 'name', 'password_hash', 'banned'])
      .where('email', '=', email)
      .executeTakeFirst();
  }

  findUserById(id: number): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'email', 'name', 'password_hash', 'banned'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findAccountByEmail(email: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('users').select(ACCOUNT_COLUMNS).where('email', '=', email).executeTakeFirst();
  }

  /**
   * Accounts, newest first. A text search reads every row (LIKE '%…%' uses no index; about 10-20 ms at 100,000
   * customers), the banned ones by their index (migration 0012), an id by the primary key.
   */
  searchAccounts({ contains, id, bannedOnly, beforeId, limit }: AccountSearch): Promise<AccountRow[]> {
    let query = this.db.selectFrom('users').select(ACCOUNT_COLUMNS);
    if (contains !== undefined) {
      const pattern = containing(contains);
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`email like ${pattern} escape '\\'`,
          sql<boolean>`lower(name) like ${pattern} escape '\\'`,
          ...(id !== undefined ? [eb('id', '=', id)] : []),
        ]),
      );
    } else if (id !== undefined) query = query.where('id', '=', id);
    if (bannedOnly) query = query.where('banned', '=', 1);
    if (beforeId !== undefined) query = query.where('id', '<', beforeId);
    return query.orderBy('id', 'desc').limit(limit).execute();
  }

  findAccountById(id: number): Promise<AccountRow | undefined> {
    return this.db.selectFrom('users').select(ACCOUNT_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Bans or lifts the ban; a ban also revokes every session of the user (run it in a transaction). Returns how many
   * sessions it revoked.
   */
  async setBanned(userId: number, banned: boolean): Promise<number> {
    await this.db
      .updateTable('users')
      .set({ banned: banned ? 1 : 0 })
      .where('id', '=', userId)
      .execute();
    if (!banned) return 0;
    const revoked = await this.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(revoked.numDeletedRows);
  }

  /** The user's sessions, newest first. */
  sessionsOf(userId: number): Promise<SessionRow[]> {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'created_at', 'expires_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }

  /** Ends one session of the user; false when the user has no such session. */
  async deleteSessionOf(userId: number, sessionId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** The new user's id, or null when the email is taken. */
  async insertUser(user: NewUser, now: number): Promise<number | null> {
    try {
      const row = await this.db
        .insertInto('users')
        .values({
          email: user.email,
          name: user.name,
          password_hash: user.passwordHash,
          invite_code: user.inviteCode,
          uuid: user.uuid,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** Sets a new password and revokes every session of the user in one transaction. */
  async replacePassword(userId: number, passwordHash: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
    });
  }

  async insertSession(userId: number, tokenHash: string, now: number, expiresAt: number): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({ user_id: userId, token_hash: tokenHash, created_at: now, expires_at: expiresAt })
      .execute();
  }

  /** The user of a live session of a user who is not banned: by the unique index on the token's hash. */
  findSessionUser(tokenHash: string, now: number): Promise<SessionUser | undefined> {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.id as id', 'users.email as email'])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.expires_at', '>', now)
      .where('users.banned', '=', 0)
      .executeTakeFirst();
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  async deleteExpiredSessions(now: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }
  // The console's overview (read only).

  /** How many accounts were made since each of `since`. */
  async countUsersCreatedSince(since: number[]): Promise<number[]> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) =>
        since.map((start, index) =>
          eb.fn
            .sum<number | string>(eb.case().when('created_at', '>=', start).then(1).else(0).end())
            .as(`count${index}`),
        ),
      )
      .where('created_at', '>=', Math.min(...since))
      .executeTakeFirst();
    return since.map((_, index) => Number((row as Record<string, unknown> | undefined)?.[`count${index}`] ?? 0));
  }
}
