import { randomUUID } from 'node:crypto';
import type { EmailCodeAction, RequestLanguage } from '@mutenet/contract';
import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../../lib/app-error.js';
import { hashToken, newToken } from '../../lib/secrets.js';
import { startOfUtcDays } from '../../lib/utc-days.js';
import type { Captchas } from '../../plugins/app/captcha.js';
import type { Mailer } from '../../plugins/app/mail.js';
import type { Store } from '../../plugins/app/store.js';
import { accountExistsMail, codeMail } from './auth.mail.js';
import type { AuthRepository, SessionUser } from './auth.repository.js';
import { EmailCodes } from './email-codes.js';

export const SESSION_TTL_MS = 30 * 24 * 3600_000;
/** Wrong passwords for one account before login is refused for the rest of the window. */
export const LOGIN_FAILURES_PER_ACCOUNT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

// Algorithm.Argon2id is an ambient const enum, which isolated modules cannot read: its value is 2.
/** How passwords are hashed: argon2id with the library's default costs. */
export const ARGON2 = { algorithm: 2 as const };

export type AuthDeps = {
  repository: AuthRepository;
  store: Store;
  captchas: Captchas;
  mailer: Mailer;
  now: () => number;
};

type CaptchaAnswer = { imgId: string; imgCode: string };

const failuresKey = (email: string) => `login-failures:${email}`;

export class AuthService {
  readonly #codes: EmailCodes;
  /** Verified against when the email is unknown, so that a login takes as long either way. */
  readonly #decoyHash: Promise<string>;

  constructor(private readonly deps: AuthDeps) {
    this.#codes = new EmailCodes(deps.store);
    this.#decoyHash = hash(newToken(), ARGON2);
  }

  async #requireCaptcha({ imgId, imgCode }: CaptchaAnswer) {
    if (!(await this.deps.captchas.verify(imgId, imgCode))) throw new AppError('CAPTCHA_INVALID');
  }

  async #requireEmailCode(action: EmailCodeAction, email: string, code: string) {
    if (!(await this.#codes.consume(action, email, code))) throw new AppError('EMAIL_CODE_INVALID');
  }

  /**
   * Answers the same whether or not the address has an account: a reset code goes only to an account, and a
   * register request for a taken address gets a mail saying so instead of a code.
   */
  async sendEmailCode(action: EmailCodeAction, input: CaptchaAnswer & { email: string }, language: RequestLanguage) {
    await this.#requireCaptcha(input);
    const email = input.email.toLowerCase();
    if (!(await this.#codes.reserveSend(email))) throw new AppError('EMAIL_CODE_TOO_SOON');
    try {
      const user = await this.deps.repository.findUserByEmail(email);
      if (action === 'register') {
        const mail = user
          ? accountExistsMail(email, language)
          : codeMail(email, action, await this.#codes.issue(action, email), language);
        await this.deps.mailer.send(mail);
      } else if (user) {
        await this.deps.mailer.send(codeMail(email, action, await this.#codes.issue(action, email), language));
      }
    } catch (error) {
      // Nothing went out: the customer may ask again at once rather than wait a minute for a mail that never comes.
      await this.#codes.releaseSend(email).catch(() => {});
      throw error;
    }
  }

  async register(input: { name: string; email: string; password: string; emailCode: string; inviteCode: string }) {
    const email = input.email.toLowerCase();
    await this.#requireEmailCode('register', email, input.emailCode);
    const id = await this.deps.repository.insertUser(
      {
        email,
        name: input.name,
        passwordHash: await hash(input.password, ARGON2),
        inviteCode: input.inviteCode || null,
        uuid: randomUUID(),
      },
      this.deps.now(),
    );
    if (id === null) throw new AppError('EMAIL_TAKEN');
  }

  /** Returns the new session token and the email to show. */
  async login(input: CaptchaAnswer & { email: string; password: string }): Promise<{ token: string; user: string }> {
    const email = input.email.toLowerCase();
    const { store, repository } = this.deps;
    if (Number((await store.get(failuresKey(email))) ?? 0) >= LOGIN_FAILURES_PER_ACCOUNT) {
      throw new AppError('TOO_MANY_REQUESTS', null, LOGIN_FAILURE_WINDOW_MS / 1000);
    }
    await this.#requireCaptcha(input);
    const user = await repository.findUserByEmail(email);
    const passes = await verify(user?.password_hash ?? (await this.#decoyHash), input.password);
    if (!user || !passes) {
      await store.increment(failuresKey(email), LOGIN_FAILURE_WINDOW_MS);
      throw new AppError('LOGIN_FAILED');
    }
    if (user.banned) throw new AppError('ACCOUNT_DISABLED');
    await store.delete(failuresKey(email));
    return { token: await this.#openSession(user.id), user: user.email };
  }

  async #openSession(userId: number): Promise<string> {
    const token = newToken();
    const now = this.deps.now();
    await this.deps.repository.insertSession(userId, hashToken(token), now, now + SESSION_TTL_MS);
    return token;
  }

  /** The signed-in user of a token, or undefined for an unknown, expired or revoked one. */
  sessionUser(token: string): Promise<SessionUser | undefined> {
    return this.deps.repository.findSessionUser(hashToken(token), this.deps.now());
  }

  logout(token: string): Promise<void> {
    return this.deps.repository.deleteSession(hashToken(token));
  }

  async resetPassword(input: { email: string; newPwd: string; emailCode: string }) {
    const email = input.email.toLowerCase();
    await this.#requireEmailCode('reset_password', email, input.emailCode);
    const user = await this.deps.repository.findUserByEmail(email);
    if (!user) throw new AppError('EMAIL_CODE_INVALID');
    await this.deps.repository.replacePassword(user.id, await hash(input.newPwd, ARGON2));
    await this.deps.store.delete(failuresKey(email));
  }

  async changePassword(userId: number, input: { oldPwd: string; newPwd: string }) {
    const user = await this.deps.repository.findUserById(userId);
    if (!user || !(await verify(user.password_hash, input.oldPwd))) throw new AppError('OLD_PASSWORD_WRONG');
    await this.deps.repository.replacePassword(user.id, await hash(input.newPwd, ARGON2));
  }

  deleteExpiredSessions(): Promise<void> {
    return this.deps.repository.deleteExpiredSessions(this.deps.now());
  }
  // The console's overview (read only).

  /** How many customers signed up in each of the last `days` UTC days, today included. */
  countNewInDays(days: number[]): Promise<number[]> {
    const now = this.deps.now();
    return this.deps.repository.countUsersCreatedSince(days.map((count) => startOfUtcDays(now, count)));
  }
}
