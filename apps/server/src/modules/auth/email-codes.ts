import { randomInt } from 'node:crypto';
import { EMAIL_CODE_RESEND_SECONDS, type EmailCodeAction } from '@mutenet/contract';
import { hashToken, matchesHash } from '../../lib/secrets.js';
import type { Store } from '../../plugins/app/store.js';

export const EMAIL_CODE_TTL_MS = 10 * 60_000;
export const EMAIL_CODE_MAX_TRIES = 5;
export const EMAIL_CODE_SEND_INTERVAL_MS = EMAIL_CODE_RESEND_SECONDS * 1000;

const codeKey = (action: EmailCodeAction, email: string) => `email-code:${action}:${email}`;
const triesKey = (action: EmailCodeAction, email: string) => `email-code-tries:${action}:${email}`;
// One key for both actions: at most one mail a minute to an address, whatever it is for.
const sentKey = (email: string) => `email-code-sent:${email}`;

/** 6-digit codes that live 10 minutes, are used once, and die after 5 wrong tries. Only their hash is kept. */
export class EmailCodes {
  constructor(private readonly store: Store) {}

  /** False when a mail went to this address less than a minute ago. */
  reserveSend(email: string): Promise<boolean> {
    return this.store.setIfAbsent(sentKey(email), '1', EMAIL_CODE_SEND_INTERVAL_MS);
  }

  /** Gives the minute back when the mail could not be sent, so that the customer can try again at once. */
  releaseSend(email: string): Promise<void> {
    return this.store.delete(sentKey(email));
  }

  async issue(action: EmailCodeAction, email: string): Promise<string> {
    const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
    await this.store.delete(triesKey(action, email));
    await this.store.set(codeKey(action, email), hashToken(code), EMAIL_CODE_TTL_MS);
    return code;
  }

  /** True once for the right code; each wrong one counts against the tries. */
  async consume(action: EmailCodeAction, email: string, code: string): Promise<boolean> {
    const expected = await this.store.get(codeKey(action, email));
    if (expected === null) return false;
    if (!matchesHash(code, expected)) {
      const tries = await this.store.increment(triesKey(action, email), EMAIL_CODE_TTL_MS);
      if (tries >= EMAIL_CODE_MAX_TRIES) await this.store.delete(codeKey(action, email));
      return false;
    }
    // Taking it is what makes it single-use when two requests race with the same code.
    const taken = await this.store.take(codeKey(action, email));
    await this.store.delete(triesKey(action, email));
    return taken !== null;
  }
}
