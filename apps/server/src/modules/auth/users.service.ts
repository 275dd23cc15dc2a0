import type { Executor } from '../../db/transaction.js';
import { type AccountRow, AuthRepository } from './auth.repository.js';

export type Account = { id: number; email: string; name: string; banned: boolean; createdAt: number };

export type AccountQuery = { search?: string; bannedOnly?: boolean; limit: number };

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  email: row.email,
  name: row.name,
  banned: row.banned === 1,
  createdAt: row.created_at,
});

/** The users service on a database, as the admin command line builds it. */
export function createUsersService(db: Executor): UsersService {
  return new UsersService(new AuthRepository(db));
}

/**
 * Operator look-ups of accounts. Apart from `AuthService`, which also needs the store, the captchas and the mailer
 * of a running server, so that the admin command line can find users with the database alone.
 */
export class UsersService {
  constructor(private readonly repository: AuthRepository) {}

  /** The id of the account with this email (stored in lower case), or undefined when there is none. */
  async findUserIdByEmail(email: string): Promise<number | undefined> {
    return (await this.repository.findUserByEmail(email.trim().toLowerCase()))?.id;
  }

  /** The account with this email, or undefined when there is none. */
  async find(email: string): Promise<Account | undefined> {
    const row = await this.repository.findAccountByEmail(email.trim().toLowerCase());
    return row && toAccount(row);
  }

  /** Accounts, newest first: those whose email contains `search` (any case), or only the banned ones. */
  async list({ search, bannedOnly, limit }: AccountQuery): Promise<Account[]> {
    const emailContains = search?.trim().toLowerCase();
    const rows = await this.repository.listAccounts({
      ...(emailContains ? { emailContains } : {}),
      ...(bannedOnly ? { bannedOnly } : {}),
      limit,
    });
    return rows.map(toAccount);
  }

  /**
   * Bans the account (it can no longer sign in, its sessions are revoked and its subscription link stops) or lifts
   * the ban. False when there is no such account. Nodes drop or take the user back once the caller touches the
   * subscription service's users.
   */
  setBanned(userId: number, banned: boolean): Promise<boolean> {
    return this.repository.setBanned(userId, banned);
  }

  /** The email of each of the accounts that exist among the ids. */
  async emailsOf(ids: number[]): Promise<Map<number, string>> {
    const emails = new Map<number, string>();
    for (const id of new Set(ids)) {
      const user = await this.repository.findUserById(id);
      if (user) emails.set(id, user.email);
    }
    return emails;
  }
}
