import type { Kysely } from 'kysely';
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

  /** The user of a live session of a user who is not banned. */
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
