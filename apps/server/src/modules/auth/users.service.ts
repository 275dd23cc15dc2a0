import { type Executor, inTransaction } from '../../db/transaction.js';
import type { AuditHook } from '../audit/audit.service.js';
import { type AccountRow, AuthRepository } from './auth.repository.js';

export type Account = { id: number; email: string; name: string; banned: boolean; createdAt: number };

/** A sign-in session of a customer, as the operator sees it: never its token. */
export type AccountSession = { id: number; createdAt: number; expiresAt: number };

/** `search`: part of the email or the name (any case), or the id; `beforeId`: the page after the one it ended. */
export type AccountQuery = { search?: string; bannedOnly?: boolean; beforeId?: number; limit: number };

/** The largest id a search takes as one (the ids' column is a 32-bit integer on PostgreSQL). */
const MAX_ID = 2_147_483_647;

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  email: row.email,
  name: row.name,
  banned: row.banned === 1,
  createdAt: row.created_at,
});

/** The users service on a database, as the customers module and the admin command line build it. */
export function createUsersService(db: Executor): UsersService {
  return new UsersService(db);
}

/**
 * Operators' look-ups and changes of customers' accounts. Apart from `AuthService`, which also needs the store, the
 * captchas and the mailer of a running server, so that the admin command line can work with the database alone.
 */
export class UsersService {
  readonly #repository: AuthRepository;

  constructor(private readonly db: Executor) {
    this.#repository = new AuthRepository(db);
  }

  /** The id of the account with this email (stored in lower case), or undefined when there is none. */
  async findUserIdByEmail(email: string): Promise<number | undefined> {
    return (await this.#repository.findUserByEmail(email.trim().toLowerCase()))?.id;
  }

  /** The account with this email, or undefined when there is none. */
  async find(email: string): Promise<Account | undefined> {
    const row = await this.#repository.findAccountByEmail(email.trim().toLowerCase());
    return row && toAccount(row);
  }

  async get(id: number): Promise<Account | undefined> {
    const row = await this.#repository.findAccountById(id);
    return row && toAccount(row);
  }

  /**
   * Accounts, newest first, a page at a time: those whose email or name contains `search` (any case) or whose id it
   * is, only the banned ones if asked. `next` is the `beforeId` of the following page, null at the end.
   */
  async search({
    search,
    bannedOnly,
    beforeId,
    limit,
  }: AccountQuery): Promise<{ accounts: Account[]; next: number | null }> {
    const text = search?.trim().toLowerCase();
    const id = text && /^\d{1,10}$/.test(text) && Number(text) <= MAX_ID ? Number(text) : undefined;
    // One row more than the page: whether there is a next page, without counting them all.
    const rows = await this.#repository.searchAccounts({
      ...(text ? { contains: text } : {}),
      ...(id !== undefined ? { id } : {}),
      ...(bannedOnly ? { bannedOnly } : {}),
      ...(beforeId !== undefined ? { beforeId } : {}),
      limit: limit + 1,
    });
    const accounts = rows.slice(0, limit).map(toAccount);
    return { accounts, next: rows.length > limit ? (accounts.at(-1)?.id ?? null) : null };
  }

  /**
   * Bans the account (it can no longer sign in, its sessions are revoked and its subscription link stops) or lifts
   * the ban. False when there is no such account. Nodes drop or take the user back once the caller touches the
   * subscription service's users.
   */
  setBanned(userId: number, banned: boolean, audit?: AuditHook): Promise<boolean> {
    return inTransaction(this.db, async (tx) => {
      const repository = this.#repository.with(tx);
      const row = await repository.findAccountById(userId);
      if (!row) return false;
      const revoked = await repository.setBanned(userId, banned);
      await audit?.(tx, {
        action: banned ? 'customer.ban' : 'customer.unban',
        target: { type: 'customer', id: userId },
        before: { banned: row.banned === 1, ...(banned ? { sessions: revoked } : {}) },
        after: { banned, ...(banned ? { sessions: 0 } : {}) },
      });
      return true;
    });
  }

  /** The customer's sign-in sessions, newest first (expired ones stay until the hourly clean-up). */
  async sessionsOf(userId: number): Promise<AccountSession[]> {
    return (await this.#repository.sessionsOf(userId)).map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    }));
  }

  /** Signs the customer out of one session; false when they have no such session. */
  revokeSession(userId: number, sessionId: number, audit?: AuditHook): Promise<boolean> {
    return inTransaction(this.db, async (tx) => {
      if (!(await this.#repository.with(tx).deleteSessionOf(userId, sessionId))) return false;
      await audit?.(tx, {
        action: 'customer.revokeSession',
        target: { type: 'customer', id: userId },
        before: { session: sessionId },
        after: null,
      });
      return true;
    });
  }

  /** The email of each of the accounts that exist among the ids. */
  async emailsOf(ids: number[]): Promise<Map<number, string>> {
    const emails = new Map<number, string>();
    for (const id of new Set(ids)) {
      const user = await this.#repository.findUserById(id);
      if (user) emails.set(id, user.email);
    }
    return emails;
  }
}
