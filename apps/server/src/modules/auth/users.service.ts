import type { Executor } from '../../db/transaction.js';
import { AuthRepository } from './auth.repository.js';

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
