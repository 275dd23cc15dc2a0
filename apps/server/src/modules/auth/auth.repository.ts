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

export type AccountFilter = { emailContains?: string; bannedOnly?: boolean; limit: number };

const ACCOUNT_COLUMNS = ['id', 'email', 'name', 'banned', 'created_at'] as const;

/** A LIKE pattern that matches `text` anywhere, with its own `%`, `_` and `\` taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

export class AuthRepository {
  constructor(private readonly db: Kysely<Database>) {}

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

  /** Accounts, newest first. */
  listAccounts({ emailContains, bannedOnly, limit }: AccountFilter): Promise<AccountRow[]> {
    let query = this.db.selectFrom('users').select(ACCOUNT_COLUMNS);
    if (emailContains) query = query.where(sql<boolean>`email like ${containing(emailContains)} escape '\\'`);
    if (bannedOnly) query = query.where('banned', '=', 1);
    return query.orderBy('id', 'desc').limit(limit).execute();
  }

  /** Bans or lifts the ban; a ban also revokes every session of the user, in one transaction. False: no such user. */
  setBanned(userId: number, banned: boolean): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('users')
        .set({ banned: banned ? 1 : 0 })
        .where('id', '=', userId)
        .executeTakeFirst();
      if (banned) await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      return result.numUpdatedRows > 0n;
    });
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
}
