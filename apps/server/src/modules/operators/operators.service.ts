import { randomBytes } from 'node:crypto';
import {
  ADMIN_PERMISSIONS,
  type AdminPermission,
  type ApiToken,
  type ApiTokenWithSecret,
  OPERATOR_ROLES,
  type OperatorAccount,
  type OperatorRole,
  type OperatorSession,
  type Passkey,
  type PasskeyAssertion,
  type PasskeyOptions,
  type PasskeyRegistration,
  roleMay,
  type SecondFactor,
  type SessionStep,
  type TotpEnrolment,
} from '@mutenet/contract';
import { hash, verify } from '@node-rs/argon2';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { Secret, TOTP } from 'otpauth';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken, newToken } from '../../lib/secrets.js';
import type { Store } from '../../plugins/app/store.js';
import type { AuditHook } from '../audit/audit.service.js';
import { ARGON2 } from '../auth/auth.service.js';
import { type OperatorRow, OperatorsRepository, type PasskeyRow } from './operators.repository.js';

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
/** How long a sign-in whose password was right waits for its passkey. */
export const PENDING_SIGN_IN_TTL_MS = 5 * 60_000;
/** How long a passkey's options (their challenge) stay valid; each is taken once. */
const PASSKEY_CEREMONY_TTL_MS = 5 * 60_000;
/** The part of a credential id the audit log keeps: enough to tell an operator's passkeys apart. */
const CREDENTIAL_ID_PREFIX_LENGTH = 8;

/** Who acts: an operator in a session, or an API token (then `tokenId` names it and `id` is its maker). */
export type SignedInOperator = { id: number; email: string; role: OperatorRole; tokenId: number | null };

/** A request's operator and what its session may do yet. */
export type OperatorAccess = {
  operator: SignedInOperator;
  /** Null for an API token. */
  sessionId: number | null;
  totpEnrolled: boolean;
  passkeys: number;
  mustChangePassword: boolean;
  secondFactorPending: boolean;
};

/** Whom passkeys are made for: PUBLIC_URL's host name (the WebAuthn RP ID) and origin. */
export type RelyingParty = { id: string; origin: string };

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin };
}

/** `relyingParty`: the console's; the command line makes no passkey ceremony and has none. */
export type OperatorsDeps = { db: Executor; store: Store; now: () => number; relyingParty?: RelyingParty };

/** A sign-in answered: a session, or the password was right and a second factor is wanted (`pending` names it). */
export type SignInResult = { token: string; next: SessionStep } | { pending: string; factors: SecondFactor[] };

export type Client = { ip: string; userAgent: string };

const failuresKey = (email: string) => `operator-login-failures:${email}`;
const enrolmentKey = (operatorId: number) => `operator-totp-enrolment:${operatorId}`;
const pendingSignInKey = (token: string) => `operator-pending-sign-in:${hashToken(token)}`;
const passkeySignInKey = (token: string) => `operator-passkey-sign-in:${hashToken(token)}`;
const passkeyRegistrationKey = (sessionId: number) => `operator-passkey-registration:${sessionId}`;

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

function passkeyOf(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

const transportsOf = (row: PasskeyRow) => (row.transports ? row.transports.split(',') : []);

/** Whether the session is limited, and to what: the password first, then a second factor. */
export function nextStep(access: Pick<OperatorAccess, 'mustChangePassword' | 'secondFactorPending'>): SessionStep {
  if (access.mustChangePassword) return 'change-password';
  return access.secondFactorPending ? 'enrol-second-factor' : 'ready';
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

  async #refuseLocked(email: string): Promise<void> {
    if (Number((await this.deps.store.get(failuresKey(email))) ?? 0) >= OPERATOR_FAILURES_PER_ACCOUNT) {
      throw new AppError('TOO_MANY_REQUESTS', null, OPERATOR_FAILURE_WINDOW_MS / 1000);
    }
  }

  /** A session for the operator, whose sign-in is complete: the lock's count of failures starts again. */
  async #openSession(operator: OperatorRow, verified: boolean, client: Client) {
    await this.deps.store.delete(failuresKey(operator.email));
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
    const next = nextStep({ mustChangePassword: operator.must_change_password === 1, secondFactorPending: !verified });
    return { token, next };
  }

  /**
   * Signs in with the password and, once enrolled, a second factor: the authenticator's code in the same call (each
   * code taken once), or else a passkey afterwards (`finishPasskeySignIn`, with the `pending` token answered here). One
   * answer for a wrong email, password or code; too many of them lock the email for the rest of the window. An owner
   * without a second factor gets a session that may only enrol one (and change the password).
   */
  async signIn(
    input: { email: string; password: string; code?: string | undefined },
    client: Client,
  ): Promise<SignInResult> {
    const email = input.email.toLowerCase();
    await this.#refuseLocked(email);
    const operator = await this.#repository.findByEmail(email);
    const passes = await verify(operator?.password_hash ?? (await this.#decoyHash), input.password);
    if (!operator || !passes) return this.#failed(email);
    if (operator.disabled) throw new AppError('ACCOUNT_DISABLED');
    const factors: SecondFactor[] = [];
    if (operator.totp_secret !== null) factors.push('totp');
    if ((await this.#repository.listPasskeys(operator.id)).length > 0) factors.push('passkey');
    if (factors.length === 0) return this.#openSession(operator, operator.role !== 'owner', client);
    if (operator.totp_secret !== null && input.code) {
      const step = this.#stepOf(operator.totp_secret, email, input.code);
      if (step === null || !(await this.#repository.takeTotpStep(operator.id, step))) return this.#failed(email);
      return this.#openSession(operator, true, client);
    }
    // The password was right: the server holds whose sign-in waits; the client only gets a name for it.
    const pending = newToken();
    await this.deps.store.set(pendingSignInKey(pending), String(operator.id), PENDING_SIGN_IN_TTL_MS);
    return { pending, factors };
  }

  #relyingParty(): RelyingParty {
    if (!this.deps.relyingParty) throw new Error('passkeys need the relying party (PUBLIC_URL)');
    return this.deps.relyingParty;
  }

  /** The operator whose sign-in waits for a passkey under this token, still allowed to sign in; else 401 or why. */
  async #pendingOperator(pending: string): Promise<OperatorRow> {
    const id = pending.length > TOKEN_MAX_LENGTH ? null : await this.deps.store.get(pendingSignInKey(pending));
    const operator = id === null ? undefined : await this.#repository.findById(Number(id));
    if (!operator) throw new AppError('UNAUTHORIZED');
    await this.#refuseLocked(operator.email);
    if (operator.disabled) throw new AppError('ACCOUNT_DISABLED');
    return operator;
  }

  /** The options to sign in with one of the pending operator's passkeys; their challenge is taken once. */
  async beginPasskeySignIn(pending: string): Promise<PasskeyOptions> {
    const operator = await this.#pendingOperator(pending);
    const passkeys = await this.#repository.listPasskeys(operator.id);
    if (passkeys.length === 0) throw new AppError('PASSKEY_INVALID');
    const options = await generateAuthenticationOptions({
      rpID: this.#relyingParty().id,
      allowCredentials: passkeys.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
      userVerification: 'preferred',
      timeout: PASSKEY_CEREMONY_TTL_MS,
    });
    await this.deps.store.set(passkeySignInKey(pending), options.challenge, PASSKEY_CEREMONY_TTL_MS);
    return { ...options };
  }

  /**
   * Completes the pending sign-in with a passkey's assertion: the challenge of the options begun (taken once), one of
   * this operator's credentials, a valid signature and a counter that moved on (a cloned authenticator's does not). A
   * wrong one counts against the email as a wrong password does.
   */
  async finishPasskeySignIn(
    pending: string,
    assertion: PasskeyAssertion,
    client: Client,
  ): Promise<{ token: string; next: SessionStep }> {
    const operator = await this.#pendingOperator(pending);
    const challenge = await this.deps.store.take(passkeySignInKey(pending));
    const passkey = await this.#repository.findPasskey(operator.id, assertion.id);
    if (challenge === null || !passkey) return this.#failed(operator.email);
    const { id: rpID, origin } = this.#relyingParty();
    const counter = Number(passkey.counter);
    const verification = await verifyAuthenticationResponse({
      response: { ...assertion, clientExtensionResults: assertion.clientExtensionResults ?? {} },
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.credential_id,
        publicKey: isoBase64URL.toBuffer(passkey.public_key),
        counter,
        transports: transportsOf(passkey),
      },
      requireUserVerification: false,
    }).catch(() => null);
    if (!verification?.verified) return this.#failed(operator.email);
    const { newCounter } = verification.authenticationInfo;
    if (!(await this.#repository.usePasskey(passkey.id, counter, newCounter, this.deps.now()))) {
      return this.#failed(operator.email);
    }
    await this.deps.store.delete(pendingSignInKey(pending));
    return this.#openSession(operator, true, client);
  }

  /** The operator of a live session token (the cookie's), or undefined. Moves its idle expiry forward. */
  async sessionAccess(token: string): Promise<OperatorAccess | undefined> {
    if (token.length > TOKEN_MAX_LENGTH) return undefined;
    const now = this.deps.now();
    const row = await this.#repository.findLiveSession(hashToken(token), now, now - SESSION_IDLE_MS);
    if (!row || !isRole(row.role)) return undefined;
    if (now - Number(row.last_seen_at) >= SESSION_TOUCH_MS) await this.#repository.touchSession(row.session_id, now);
    const totpEnrolled = Number(row.totp_enrolled) === 1;
    const passkeys = Number(row.passkeys ?? 0);
    return {
      operator: { id: row.operator_id, email: row.email, role: row.role, tokenId: null },
      sessionId: row.session_id,
      totpEnrolled,
      passkeys,
      mustChangePassword: row.must_change_password === 1,
      // A manager promoted to owner in a session opened without a second factor must enrol one too.
      secondFactorPending: row.verified !== 1 || (row.role === 'owner' && !totpEnrolled && passkeys === 0),
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
      passkeys: 0,
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
      passkeys: access.passkeys,
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

  /**
   * The session of an operator who may see and change their own passkeys: a console session (not an API token) whose
   * password is their own; an owner's session still without a second factor may (it enrols one).
   */
  #passkeySession(access: OperatorAccess): number {
    if (access.sessionId === null || access.mustChangePassword) throw new AppError('FORBIDDEN');
    return access.sessionId;
  }

  async listPasskeys(access: OperatorAccess): Promise<Passkey[]> {
    this.#passkeySession(access);
    return (await this.#repository.listPasskeys(access.operator.id)).map(passkeyOf);
  }

  /** The options for the browser to make a passkey (not one of the operator's again); their challenge is taken once. */
  async beginPasskeyRegistration(access: OperatorAccess): Promise<PasskeyOptions> {
    const sessionId = this.#passkeySession(access);
    const { id, email } = access.operator;
    const existing = await this.#repository.listPasskeys(id);
    const options = await generateRegistrationOptions({
      rpName: TOTP_ISSUER,
      rpID: this.#relyingParty().id,
      userName: email,
      // The user handle: stable per operator, so that an authenticator keeps one passkey of theirs, not their email.
      userID: new TextEncoder().encode(`operator-${id}`),
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      timeout: PASSKEY_CEREMONY_TTL_MS,
    });
    await this.deps.store.set(passkeyRegistrationKey(sessionId), options.challenge, PASSKEY_CEREMONY_TTL_MS);
    return { ...options };
  }

  /**
   * Adds the passkey the browser made for the options begun in this session (PASSKEY_INVALID when it does not verify
   * or is registered already); the session is then verified, as after enrolling an authenticator.
   */
  async addPasskey(
    access: OperatorAccess,
    input: { name: string; response: PasskeyRegistration },
    audit?: AuditHook,
  ): Promise<{ passkey: Passkey; next: SessionStep }> {
    const sessionId = this.#passkeySession(access);
    const challenge = await this.deps.store.take(passkeyRegistrationKey(sessionId));
    if (challenge === null) throw new AppError('PASSKEY_INVALID');
    const { id: rpID, origin } = this.#relyingParty();
    const verification = await verifyRegistrationResponse({
      response: { ...input.response, clientExtensionResults: input.response.clientExtensionResults ?? {} },
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    }).catch(() => null);
    if (!verification?.verified) throw new AppError('PASSKEY_INVALID');
    const { credential } = verification.registrationInfo;
    const operatorId = access.operator.id;
    const id = await inTransaction(this.deps.db, async (tx) => {
      const repository = new OperatorsRepository(tx);
      const id = await repository.insertPasskey({
        operatorId,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: (input.response.response.transports ?? []).join(','),
        name: input.name,
        now: this.deps.now(),
      });
      if (id === null) throw new AppError('PASSKEY_INVALID');
      await repository.markSessionVerified(sessionId);
      await audit?.(tx, {
        action: 'passkey.add',
        target: { type: 'passkey', id },
        before: null,
        after: { operatorId, name: input.name, credentialId: credential.id.slice(0, CREDENTIAL_ID_PREFIX_LENGTH) },
      });
      return id;
    });
    const row = (await this.#repository.listPasskeys(operatorId)).find((passkey) => passkey.id === id);
    if (!row) throw new AppError('NOT_FOUND');
    return {
      passkey: passkeyOf(row),
      next: nextStep({ mustChangePassword: access.mustChangePassword, secondFactorPending: false }),
    };
  }

  /** Removes one of the operator's passkeys; an owner keeps at least one second factor (LAST_SECOND_FACTOR). */
  async removePasskey(access: OperatorAccess, id: number, audit?: AuditHook): Promise<void> {
    this.#passkeySession(access);
    const operatorId = access.operator.id;
    await inTransaction(this.deps.db, async (tx) => {
      const repository = new OperatorsRepository(tx);
      await repository.lockOperator(operatorId);
      const operator = await repository.findById(operatorId);
      const removed = await repository.deletePasskey(operatorId, id);
      if (!operator || !removed) throw new AppError('NOT_FOUND');
      const factorsLeft = (operator.totp_secret !== null ? 1 : 0) + (await repository.listPasskeys(operatorId)).length;
      if (operator.role === 'owner' && factorsLeft === 0) throw new AppError('LAST_SECOND_FACTOR');
      await audit?.(tx, {
        action: 'passkey.remove',
        target: { type: 'passkey', id },
        before: {
          operatorId,
          name: removed.name,
          credentialId: removed.credential_id.slice(0, CREDENTIAL_ID_PREFIX_LENGTH),
        },
        after: null,
      });
    });
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
  async createApiToken(
    input: { name: string; role: OperatorRole; createdBy: number },
    audit?: AuditHook,
  ): Promise<ApiTokenWithSecret> {
    const token = newToken();
    const id = await inTransaction(this.deps.db, async (tx) => {
      const id = await new OperatorsRepository(tx).insertApiToken({
        name: input.name,
        tokenHash: hashToken(token),
        role: input.role,
        createdBy: input.createdBy,
        now: this.deps.now(),
      });
      await audit?.(tx, {
        action: 'apiToken.create',
        target: { type: 'apiToken', id },
        before: null,
        after: { name: input.name, role: input.role },
      });
      return id;
    });
    const [made] = await this.listApiTokens(id);
    if (!made) throw new AppError('NOT_FOUND');
    return { ...made, token };
  }

  /** False when there is no such live token. */
  revokeApiToken(id: number, audit?: AuditHook): Promise<boolean> {
    return inTransaction(this.deps.db, async (tx) => {
      if (!(await new OperatorsRepository(tx).revokeApiToken(id, this.deps.now()))) return false;
      await audit?.(tx, {
        action: 'apiToken.revoke',
        target: { type: 'apiToken', id },
        before: { revoked: false },
        after: { revoked: true },
      });
      return true;
    });
  }

  /** The tokens not revoked (or the one of `id`), oldest first, never their secrets. */
  async listApiTokens(id?: number): Promise<ApiToken[]> {
    return (await this.#repository.listLiveApiTokens(id)).map((row) => ({
      id: row.id,
      name: row.name,
      role: isRole(row.role) ? row.role : 'support',
      createdBy: { id: row.created_by, email: row.email },
      createdAt: Number(row.created_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    }));
  }

  /** Sessions past either expiry answer 401 already; this only keeps the table from growing. */
  deleteDeadSessions(): Promise<void> {
    const now = this.deps.now();
    return this.#repository.deleteDeadSessions(now, now - SESSION_IDLE_MS);
  }
}

/** The service on a database, as the plugin and the admin command line build it. */
export function createOperatorsService(
  db: Executor,
  store: Store,
  now: () => number,
  relyingParty?: RelyingParty,
): OperatorsService {
  return new OperatorsService({ db, store, now, ...(relyingParty ? { relyingParty } : {}) });
}
