import { type Kysely, sql } from 'kysely';
import { type ChangeFeed, UNHEARD } from '../../db/change-feed.js';
import { compiledOnce } from '../../db/compiled-query.js';
import { isUniqueViolation } from '../../db/errors.js';
import { ReadCache } from '../../db/read-cache.js';
import type { Database } from '../../db/schema.js';
import type { MaybePromise } from '../../lib/maybe-promise.js';

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

/** Sessions kept in memory, by their token's hash: at most this many, each for at most this long. */
const KEPT_SESSIONS = 100_000;
const KEPT_SESSION_MS = 60_000;

export class AuthRepository {
  /** Run on every signed-in call: compiled once. */
  readonly #sessionUser;
  /** Its answers, while the database reports every change to sessions and users. */
  readonly #sessions: ReadCache<(SessionUser & { expires_at: number }) | undefined>;

  constructor(
    private readonly db: Kysely<Database>,
    changes: ChangeFeed = UNHEARD,
  ) {
    this.#sessions = new ReadCache(changes, {
      tables: ['users', 'sessions'],
      maxEntries: KEPT_SESSIONS,
      maxAgeMs: KEPT_SESSION_MS,
    });
    this.#sessionUser = compiledOnce(db, 2, (tokenHash: string, now: number) =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id as id', 'users.email as email', 'sessions.expires_at as expires_at'])
        .where('sessions.token_hash', '=', tokenHash)
        .where('sessions.expires_at', '>', now)
        .where('users.banned', '=', 0),
    );
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

  /** Accounts, newest first. */
  listAccounts({ emailContains, bannedOnly, limit }: AccountFilter): Promise<AccountRow[]> {
    let query = this.db.selectFrom('users').select(ACCOUNT_COLUMNS);
    if (emailContains) query = query.where(sql<boolean>`email like ${containing(emailContains)} escape '\\'`);
    if (bannedOnly) query = query.where('banned', '=', 1);
    return query.orderBy('id', 'desc').limit(limit).execute();
  }

  /** Bans or lifts the ban; a ban also revokes every session of the user, in one transaction. False: no such user. */
  async setBanned(userId: number, banned: boolean): Promise<boolean> {
    const updated = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('users')
        .set({ banned: banned ? 1 : 0 })
        .where('id', '=', userId)
        .executeTakeFirst();
      if (banned) await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      return result.numUpdatedRows > 0n;
    });
    this.#forgetUser(userId);
    return updated;
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
    this.#forgetUser(userId);
  }

  async insertSession(userId: number, tokenHash: string, now: number, expiresAt: number): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({ user_id: userId, token_hash: tokenHash, created_at: now, expires_at: expiresAt })
      .execute();
  }

  /** The user of a live session of a user who is not banned. */
  findSessionUser(tokenHash: string, now: number): MaybePromise<SessionUser | undefined> {
    return this.#sessions.read(
      tokenHash,
      now,
      () => this.#sessionUser.takeFirst(tokenHash, now),
      (user) =>
        user && {
          rows: [
            ['users', user.id],
            ['sessions', user.id],
          ],
          until: user.expires_at,
        },
    );
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    this.#sessions.forget(tokenHash);
  }

  /**
   * This instance's own revocations take effect on its next request, without waiting for the database's notice (which
   * every instance hears, this one too).
   */
  #forgetUser(userId: number): void {
    this.#sessions.forgetRow('users', userId);
  }

  async deleteExpiredSessions(now: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }
}
