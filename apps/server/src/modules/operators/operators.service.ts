import { randomBytes } from 'node:crypto';
import {
  ADMIN_PERMISSIONS,
  type AdminPermission,
  OPERATOR_ROLES,
  type OperatorAccount,
  type OperatorRole,
  type OperatorSession,
  roleMay,
  type SessionStep,
  type TotpEnrolment,
} from '@mutenet/contract';
import { hash, verify } from '@node-rs/argon2';
import { Secret, TOTP } from 'otpauth';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken, newToken } from '../../lib/secrets.js';
import type { Store } from '../../plugins/app/store.js';
import type { AuditHook } from '../audit/audit.service.js';
import { ARGON2 } from '../auth/auth.service.js';
import { type OperatorRow, OperatorsRepository } from './operators.repository.js';

/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 30 * 60_000;
/** …and this long after sign-in in any case. */
export const SESSION_MAX_MS = 12 * 3600_000;
/** `last_seen_at` moves at most this often: the idle expiry needs no finer clock, and most requests write nothing. */
const SESSION_TOUCH_MS = 60_000;
/** Failed sign-ins of one email (wrong password or code) before it is locked for the rest of the window. */
export const OPERATOR_FAILURES_PER_ACCOUNT = 10;
export const OPERATOR_FAILURE_WINDOW_MS = 15 * 60_000;
/** How long an enrolment begun waits for its first code. */
const TOTP_ENROLMENT_TTL_MS = 15 * 60_000;
/** RFC 6238 as every authenticator app reads it; a code of the step before or after is taken too (clock drift). */
const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const TOTP_WINDOW = 1;
/** The name authenticator apps show beside the operator's email. */
const TOTP_ISSUER = 'Mutenet';
const TOKEN_MAX_LENGTH = 256;

/** Who acts: an operator in a session, or an API token (then `tokenId` names it and `id` is its maker). */
export type SignedInOperator = { id: number; email: string; role: OperatorRole; tokenId: number | null };

/** A request's operator and what its session may do yet. */
export type OperatorAccess = {
  operator: SignedInOperator;
  /** Null for an API token. */
  sessionId: number | null;
  totpEnrolled: boolean;
  mustChangePassword: boolean;
  secondFactorPending: boolean;
};

export type OperatorsDeps = { db: Executor; store: Store; now: () => number };

export type Client = { ip: string; userAgent: string };

const failuresKey = (email: string) => `operator-login-failures:${email}`;
const enrolmentKey = (operatorId: number) => `operator-totp-enrolment:${operatorId}`;

const isRole = (value: string): value is OperatorRole => (OPERATOR_ROLES as readonly string[]).includes(value);

/** A one-time password: 120 random bits, to be typed once and changed at once. */
const oneTimePassword = () => randomBytes(15).toString('base64url');

function account(row: OperatorRow): OperatorAccount {
  return {
    id: row.id,
    email: row.email,
    role: isRole(row.role) ? row.role : 'support',
    totpEnrolled: row.totp_secret !== null,
    mustChangePassword: row.must_change_password === 1,
    disabled: row.disabled === 1,
    createdAt: Number(row.created_at),
  };
}

/** Whether the session is limited, and to what: the password first, then the authenticator. */
export function nextStep(access: Pick<OperatorAccess, 'mustChangePassword' | 'secondFactorPending'>): SessionStep {
  if (access.mustChangePassword) return 'change-password';
  return access.secondFactorPending ? 'enrol-totp' : 'ready';
}

/** True when the request may do `permission`: its role allows it and its session is not limited. */
export function accessMay(access: OperatorAccess, permission: AdminPermission): boolean {
  return nextStep(access) === 'ready' && roleMay(access.operator.role, permission);
}

/**
 * Operators' accounts, sign-in (password, then the authenticator's code), sessions, API tokens and the owners'
 * management of operators. The console's routes and the `admin operator` commands both work through it.
 */
export class OperatorsService {
  /** Verified against when the email is unknown, so that a sign-in takes as long either way. */
  readonly #decoyHash: Promise<string>;
  readonly #repository: OperatorsRepository;

  constructor(private readonly deps: OperatorsDeps) {
    this.#decoyHash = hash(newToken(), ARGON2);
    this.#repository = new OperatorsRepository(deps.db);
  }

  #totp(secret: string, email: string) {
    return new TOTP({
      issuer: TOTP_ISSUER,
      label: email,
      secret: Secret.fromBase32(secret),
      ...TOTP_SETTINGS,
    });
  }

  /** The time step of a code valid now (within the window), or null. */
  #stepOf(secret: string, email: string, code: string): number | null {
    const timestamp = this.deps.now();
    const delta = this.#totp(secret, email).validate({ token: code, timestamp, window: TOTP_WINDOW });
    if (delta === null) return null;
    return Math.floor(timestamp / 1000 / TOTP_SETTINGS.period) + delta;
  }

  async #failed(email: string): Promise<never> {
    await this.deps.store.increment(failuresKey(email), OPERATOR_FAILURE_WINDOW_MS);
    throw new AppError('LOGIN_FAILED');
  }

  /**
   * Signs in with the password and, once enrolled, the authenticator's code (each code taken once). One answer for
   * a wrong email, password or code; too many of them lock the email for the rest of the window. An owner without an
   * authenticator gets a session that may only enrol one (and change the password).
   */
  async signIn(
    input: { email: string; password: string; code?: string | undefined },
    client: Client,
  ): Promise<{ token: string; next: SessionStep }> {
    const email = input.email.toLowerCase();
    const { store } = this.deps;
    if (Number((await store.get(failuresKey(email))) ?? 0) >= OPERATOR_FAILURES_PER_ACCOUNT) {
      throw new AppError('TOO_MANY_REQUESTS', null, OPERATOR_FAILURE_WINDOW_MS / 1000);
    }
    const operator = await this.#repository.findByEmail(email);
    const passes = await verify(operator?.password_hash ?? (await this.#decoyHash), input.password);
    if (!operator || !passes) return this.#failed(email);
    if (operator.disabled) throw new AppError('ACCOUNT_DISABLED');
    let verified = operator.role !== 'owner';
    if (operator.totp_secret !== null) {
      if (!input.code) throw new AppError('SECOND_FACTOR_REQUIRED');
      const step = this.#stepOf(operator.totp_secret, email, input.code);
      if (step === null || !(await this.#repository.takeTotpStep(operator.id, step))) return this.#failed(email);
      verified = true;
    }
    await store.delete(failuresKey(email));
    const token = newToken();
    const now = this.deps.now();
    await this.#repository.insertSession({
      operatorId: operator.id,
      tokenHash: hashToken(token),
      verified,
      ip: client.ip.slice(0, 64),
      userAgent: client.userAgent.slice(0, 255),
      now,
      expiresAt: now + SESSION_MAX_MS,
    });
    return {
      token,
      next: nextStep({
        mustChangePassword: operator.must_change_password === 1,
        secondFactorPending: !verified,
      }),
    };
  }

  /** The operator of a live session token (the cookie's), or undefined. Moves its idle expiry forward. */
  async sessionAccess(token: string): Promise<OperatorAccess | undefined> {
    if (token.length > TOKEN_MAX_LENGTH) return undefined;
    const now = this.deps.now();
    const row = await this.#repository.findLiveSession(hashToken(token), now, now - SESSION_IDLE_MS);
    if (!row || !isRole(row.role)) return undefined;
    if (now - Number(row.last_seen_at) >= SESSION_TOUCH_MS) await this.#repository.touchSession(row.session_id, now);
    const totpEnrolled = Number(row.totp_enrolled) === 1;
    return {
      operator: { id: row.operator_id, email: row.email, role: row.role, tokenId: null },
      sessionId: row.session_id,
      totpEnrolled,
      mustChangePassword: row.must_change_password === 1,
      // A manager promoted to owner in a session opened without an authenticator must enrol one too.
      secondFactorPending: row.verified !== 1 || (row.role === 'owner' && !totpEnrolled),
    };
  }

  /** The access an API token gives: its own role, in its maker's name. */
  async tokenAccess(token: string): Promise<OperatorAccess | undefined> {
    if (token.length > TOKEN_MAX_LENGTH) return undefined;
    const row = await this.#repository.findLiveApiToken(hashToken(token));
    if (!row || !isRole(row.role)) return undefined;
    const now = this.deps.now();
    if (row.last_used_at === null || now - Number(row.last_used_at) >= SESSION_TOUCH_MS) {
      await this.#repository.touchApiToken(row.id, now);
    }
    return {
      operator: { id: row.operator_id, email: row.email, role: row.role, tokenId: row.id },
      sessionId: null,
      totpEnrolled: false,
      mustChangePassword: false,
      secondFactorPending: false,
    };
  }

  /** Who am I, as the console reads it. */
  describe(access: OperatorAccess): OperatorSession {
    const ready = nextStep(access) === 'ready';
    const permissions = (Object.keys(ADMIN_PERMISSIONS) as AdminPermission[]).filter(
      (permission) => ready && roleMay(access.operator.role, permission),
    );
    return {
      id: access.operator.id,
      email: access.operator.email,
      role: access.operator.role,
      totpEnrolled: access.totpEnrolled,
      mustChangePassword: access.mustChangePassword,
      secondFactorPending: access.secondFactorPending,
      permissions,
    };
  }

  signOut(token: string): Promise<void> {
    return this.#repository.deleteSession(hashToken(token));
  }

  /** Changes the password; the operator's other sessions are revoked, this one goes on. */
  async changePassword(access: OperatorAccess, input: { current: string; next: string }): Promise<SessionStep> {
    const operator = await this.#repository.findById(access.operator.id);
    if (!operator || !(await verify(operator.password_hash, input.current))) throw new AppError('OLD_PASSWORD_WRONG');
    const passwordHash = await hash(input.next, ARGON2);
    await inTransaction(this.deps.db, (tx) =>
      new OperatorsRepository(tx).replacePassword(operator.id, passwordHash, false, access.sessionId),
    );
    return nextStep({ mustChangePassword: false, secondFactorPending: access.secondFactorPending });
  }

  /** A new secret for the operator's authenticator, held until a first code confirms it. */
  async beginTotp(access: OperatorAccess): Promise<TotpEnrolment> {
    if (access.totpEnrolled) throw new AppError('TOTP_ALREADY_ENROLLED');
    const secret = new Secret({ size: 20 }).base32;
    await this.deps.store.set(enrolmentKey(access.operator.id), secret, TOTP_ENROLMENT_TTL_MS);
    return { secret, uri: this.#totp(secret, access.operator.email).toString() };
  }

  /** Enrols the authenticator begun, proved by a code from it; the session is then verified. */
  async confirmTotp(access: OperatorAccess, code: string): Promise<SessionStep> {
    if (access.sessionId === null) throw new AppError('FORBIDDEN');
    if (access.totpEnrolled) throw new AppError('TOTP_ALREADY_ENROLLED');
    const secret = await this.deps.store.get(enrolmentKey(access.operator.id));
    const step = secret === null ? null : this.#stepOf(secret, access.operator.email, code);
    if (secret === null || step === null) throw new AppError('TOTP_CODE_INVALID');
    await this.#repository.enrolTotp(access.operator.id, secret, step, access.sessionId);
    await this.deps.store.delete(enrolmentKey(access.operator.id));
    return nextStep({ mustChangePassword: access.mustChangePassword, secondFactorPending: false });
  }

  // Owners' management of operators, and the command line's.

  async list(): Promise<OperatorAccount[]> {
    return (await this.#repository.list()).map(account);
  }

  /** The operator with this email (stored in lower case), or undefined. */
  async find(email: string): Promise<OperatorAccount | undefined> {
    const row = await this.#repository.findByEmail(email.trim().toLowerCase());
    return row && account(row);
  }

  /** Adds an operator with a one-time password, to be changed at the first sign-in. */
  async add(
    email: string,
    role: OperatorRole,
    audit?: AuditHook,
  ): Promise<{ operator: OperatorAccount; password: string }> {
    const password = oneTimePassword();
    const passwordHash = await hash(password, ARGON2);
    const address = email.trim().toLowerCase();
    const id = await inTransaction(this.deps.db, async (tx) => {
      const id = await new OperatorsRepository(tx).insert(address, role, passwordHash, this.deps.now());
      if (id === null) throw new AppError('EMAIL_TAKEN');
      await audit?.(tx, {
        action: 'operator.add',
        target: { type: 'operator', id },
        before: null,
        after: { email: address, role },
      });
      return id;
    });
    return { operator: await this.#account(id), password };
  }

  async #account(id: number): Promise<OperatorAccount> {
    const row = await this.#repository.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    return account(row);
  }

  /**
   * Changes the role or disables (sessions revoked) or enables an operator. There is always an active owner left:
   * the last one can be neither demoted nor disabled.
   */
  async update(
    id: number,
    changes: { role?: OperatorRole | undefined; disabled?: boolean | undefined },
    audit?: AuditHook,
  ): Promise<OperatorAccount> {
    await inTransaction(this.deps.db, async (tx) => {
      const repository = new OperatorsRepository(tx);
      await repository.lockOwners();
      const row = await repository.findById(id);
      if (!row) throw new AppError('NOT_FOUND');
      const role = changes.role ?? row.role;
      const disabled = changes.disabled ?? row.disabled === 1;
      const activeOwner = row.role === 'owner' && row.disabled === 0;
      if (activeOwner && !(role === 'owner' && !disabled) && (await repository.countOtherActiveOwners(id)) === 0) {
        throw new AppError('LAST_OWNER');
      }
      const touched = {
        ...(changes.role !== undefined ? { role: changes.role } : {}),
        ...(changes.disabled !== undefined ? { disabled: changes.disabled } : {}),
      };
      await repository.update(id, touched);
      await audit?.(tx, {
        action: 'operator.update',
        target: { type: 'operator', id },
        before: {
          ...(changes.role !== undefined ? { role: row.role } : {}),
          ...(changes.disabled !== undefined ? { disabled: row.disabled === 1 } : {}),
        },
        after: touched,
      });
    });
    return this.#account(id);
  }

  /** A new one-time password; every session of the operator is revoked, and a lock on the email lifted. */
  async resetPassword(id: number, audit?: AuditHook): Promise<{ operator: OperatorAccount; password: string }> {
    const row = await this.#repository.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    const password = oneTimePassword();
    const passwordHash = await hash(password, ARGON2);
    await inTransaction(this.deps.db, async (tx) => {
      await new OperatorsRepository(tx).replacePassword(id, passwordHash, true, null);
      await audit?.(tx, {
        action: 'operator.resetPassword',
        target: { type: 'operator', id },
        before: { mustChangePassword: row.must_change_password === 1 },
        after: { mustChangePassword: true },
      });
    });
    await this.deps.store.delete(failuresKey(row.email));
    return { operator: await this.#account(id), password };
  }

  /**
   * Removes an operator's authenticator (a lost phone) and signs them out everywhere: the next sign-in asks for the
   * password alone, and an owner must then enrol a new one before doing anything else.
   */
  async resetTotp(id: number, audit?: AuditHook): Promise<OperatorAccount> {
    const row = await this.#repository.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    await inTransaction(this.deps.db, async (tx) => {
      await new OperatorsRepository(tx).clearTotp(id);
      await audit?.(tx, {
        action: 'operator.resetTotp',
        target: { type: 'operator', id },
        before: { totpEnrolled: row.totp_secret !== null },
        after: { totpEnrolled: false },
      });
    });
    return this.#account(id);
  }

  revokeSessions(operatorId: number): Promise<void> {
    return this.#repository.deleteSessionsOf(operatorId);
  }

  /** An API token for scripts, with a role; the token is returned this once, and only its hash is kept. */
  async createApiToken(input: { name: string; role: OperatorRole; createdBy: number }) {
    const token = newToken();
    const id = await this.#repository.insertApiToken({
      name: input.name,
      tokenHash: hashToken(token),
      role: input.role,
      createdBy: input.createdBy,
      now: this.deps.now(),
    });
    return { id, token };
  }

  /** False when there is no such live token. */
  revokeApiToken(id: number): Promise<boolean> {
    return this.#repository.revokeApiToken(id, this.deps.now());
  }

  /** Sessions past either expiry answer 401 already; this only keeps the table from growing. */
  deleteDeadSessions(): Promise<void> {
    const now = this.deps.now();
    return this.#repository.deleteDeadSessions(now, now - SESSION_IDLE_MS);
  }
}

/** The service on a database, as the plugin and the admin command line build it. */
export function createOperatorsService(db: Executor, store: Store, now: () => number): OperatorsService {
  return new OperatorsService({ db, store, now });
}
