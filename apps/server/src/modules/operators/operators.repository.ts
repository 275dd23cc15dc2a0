import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/transaction.js';

export type OperatorRow = {
  id: number;
  email: string;
  password_hash: string;
  role: string;
  must_change_password: number;
  totp_secret: string | null;
  totp_last_step: number | null;
  disabled: number;
  created_at: number;
};

/** A live session with its operator, as the guard reads it. */
export type SessionRow = {
  session_id: number;
  verified: number;
  last_seen_at: number;
  operator_id: number;
  email: string;
  role: string;
  must_change_password: number;
  totp_enrolled: number;
  /** Null only as the subquery's type says; a count is never null. */
  passkeys: number | null;
};

/** An operator's passkey: the credential and its public key as the browser registered them, base64url. */
export type PasskeyRow = {
  id: number;
  operator_id: number;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
};

export type NewPasskey = {
  operatorId: number;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string;
  name: string;
  now: number;
};

const PASSKEY_COLUMNS = [
  'id',
  'operator_id',
  'credential_id',
  'public_key',
  'counter',
  'transports',
  'name',
  'created_at',
  'last_used_at',
] as const;

/** A live API token with its maker. */
export type ApiTokenRow = { id: number; role: string; last_used_at: number | null; operator_id: number; email: string };

export type NewSession = {
  operatorId: number;
  tokenHash: string;
  verified: boolean;
  ip: string;
  userAgent: string;
  now: number;
  expiresAt: number;
};

const OPERATOR_COLUMNS = [
  'id',
  'email',
  'password_hash',
  'role',
  'must_change_password',
  'totp_secret',
  'totp_last_step',
  'disabled',
  'created_at',
] as const;

export class OperatorsRepository {
  constructor(private readonly db: Executor) {}

  findByEmail(email: string): Promise<OperatorRow | undefined> {
    return this.db.selectFrom('operators').select(OPERATOR_COLUMNS).where('email', '=', email).executeTakeFirst();
  }

  findById(id: number): Promise<OperatorRow | undefined> {
    return this.db.selectFrom('operators').select(OPERATOR_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  list(): Promise<OperatorRow[]> {
    return this.db.selectFrom('operators').select(OPERATOR_COLUMNS).orderBy('id').execute();
  }

  /** The new operator's id, or null when the email is taken. */
  async insert(email: string, role: string, passwordHash: string, now: number): Promise<number | null> {
    try {
      const row = await this.db
        .insertInto('operators')
        .values({ email, role, password_hash: passwordHash, must_change_password: 1, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /**
   * Takes the row locks of the active owners (PostgreSQL; SQLite runs one write transaction at a time anyway), so
   * that two owners demoted at once cannot both see the other still there and leave none.
   */
  async lockOwners(): Promise<void> {
    await this.db
      .updateTable('operators')
      .set((eb) => ({ role: eb.ref('role') }))
      .where('role', '=', 'owner')
      .where('disabled', '=', 0)
      .execute();
  }

  /** Active owners other than `exceptId`. */
  async countOtherActiveOwners(exceptId: number): Promise<number> {
    const row = await this.db
      .selectFrom('operators')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('role', '=', 'owner')
      .where('disabled', '=', 0)
      .where('id', '!=', exceptId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Changes role and disabled (in the caller's transaction); disabling also revokes the operator's sessions. */
  async update(id: number, changes: { role?: string; disabled?: boolean }): Promise<void> {
    const values = {
      ...(changes.role !== undefined ? { role: changes.role } : {}),
      ...(changes.disabled !== undefined ? { disabled: changes.disabled ? 1 : 0 } : {}),
    };
    if (Object.keys(values).length === 0) return;
    await this.db.updateTable('operators').set(values).where('id', '=', id).execute();
    if (changes.disabled) await this.db.deleteFrom('operator_sessions').where('operator_id', '=', id).execute();
  }

  /**
   * Sets a password and revokes the operator's sessions but `keepSessionId` (the one that changed it); run in a
   * transaction. `mustChange`: a one-time password, to be changed at the next sign-in.
   */
  async replacePassword(id: number, passwordHash: string, mustChange: boolean, keepSessionId: number | null) {
    await this.db
      .updateTable('operators')
      .set({ password_hash: passwordHash, must_change_password: mustChange ? 1 : 0 })
      .where('id', '=', id)
      .execute();
    let sessions = this.db.deleteFrom('operator_sessions').where('operator_id', '=', id);
    if (keepSessionId !== null) sessions = sessions.where('id', '!=', keepSessionId);
    await sessions.execute();
  }

  /** Takes a TOTP time step once: false when this step or a later one was taken already. */
  async takeTotpStep(id: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('operators')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Stores a confirmed TOTP secret, its first step taken, and marks the enrolling session verified. */
  async enrolTotp(id: number, secret: string, step: number, sessionId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('operators')
        .set({ totp_secret: secret, totp_last_step: step })
        .where('id', '=', id)
        .execute();
      await trx.updateTable('operator_sessions').set({ verified: 1 }).where('id', '=', sessionId).execute();
    });
  }

  /** Removes the authenticator and revokes every session (run in a transaction): the operator enrols anew. */
  async clearTotp(id: number): Promise<void> {
    await this.db
      .updateTable('operators')
      .set({ totp_secret: null, totp_last_step: null })
      .where('id', '=', id)
      .execute();
    await this.db.deleteFrom('operator_sessions').where('operator_id', '=', id).execute();
  }

  /** Marks a session verified: its second factor was given or enrolled in it. */
  async markSessionVerified(sessionId: number): Promise<void> {
    await this.db.updateTable('operator_sessions').set({ verified: 1 }).where('id', '=', sessionId).execute();
  }

  /** Takes the operator's row lock (PostgreSQL), so that two removals of their second factors run one after the other. */
  async lockOperator(id: number): Promise<void> {
    await this.db
      .updateTable('operators')
      .set((eb) => ({ disabled: eb.ref('disabled') }))
      .where('id', '=', id)
      .execute();
  }

  listPasskeys(operatorId: number): Promise<PasskeyRow[]> {
    return this.db
      .selectFrom('operator_passkeys')
      .select(PASSKEY_COLUMNS)
      .where('operator_id', '=', operatorId)
      .orderBy('id')
      .execute();
  }

  /** The operator's passkey of this credential id, or undefined (another operator's credential included). */
  findPasskey(operatorId: number, credentialId: string): Promise<PasskeyRow | undefined> {
    return this.db
      .selectFrom('operator_passkeys')
      .select(PASSKEY_COLUMNS)
      .where('operator_id', '=', operatorId)
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
  }

  /** The new passkey's id, or null when the credential is registered already. */
  async insertPasskey(passkey: NewPasskey): Promise<number | null> {
    try {
      const row = await this.db
        .insertInto('operator_passkeys')
        .values({
          operator_id: passkey.operatorId,
          credential_id: passkey.credentialId,
          public_key: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports,
          name: passkey.name,
          created_at: passkey.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /**
   * Records a sign-in with the passkey and its new counter, only if the counter is still the one the assertion was
   * checked against: false when another sign-in moved it meanwhile.
   */
  async usePasskey(id: number, seenCounter: number, newCounter: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('operator_passkeys')
      .set({ counter: newCounter, last_used_at: now })
      .where('id', '=', id)
      .where('counter', '=', seenCounter)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The passkey removed, or undefined when the operator has none of this id. */
  async deletePasskey(operatorId: number, id: number): Promise<PasskeyRow | undefined> {
    return this.db
      .deleteFrom('operator_passkeys')
      .where('operator_id', '=', operatorId)
      .where('id', '=', id)
      .returning(PASSKEY_COLUMNS)
      .executeTakeFirst();
  }

  async insertSession(session: NewSession): Promise<void> {
    await this.db
      .insertInto('operator_sessions')
      .values({
        operator_id: session.operatorId,
        token_hash: session.tokenHash,
        verified: session.verified ? 1 : 0,
        ip: session.ip,
        user_agent: session.userAgent,
        created_at: session.now,
        last_seen_at: session.now,
        expires_at: session.expiresAt,
      })
      .execute();
  }

  /** A session that is neither past its absolute expiry nor idle since `idleSince`, of an operator not disabled. */
  findLiveSession(tokenHash: string, now: number, idleSince: number): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('operator_sessions as s')
      .innerJoin('operators as o', 'o.id', 's.operator_id')
      .select((eb) => [
        's.id as session_id',
        's.verified as verified',
        's.last_seen_at as last_seen_at',
        'o.id as operator_id',
        'o.email as email',
        'o.role as role',
        'o.must_change_password as must_change_password',
        eb.case().when('o.totp_secret', 'is not', null).then(1).else(0).end().as('totp_enrolled'),
        eb
          .selectFrom('operator_passkeys as p')
          .select((sub) => sub.fn.countAll<number>().as('count'))
          .whereRef('p.operator_id', '=', 'o.id')
          .as('passkeys'),
      ])
      .where('s.token_hash', '=', tokenHash)
      .where('s.expires_at', '>', now)
      .where('s.last_seen_at', '>', idleSince)
      .where('o.disabled', '=', 0)
      .executeTakeFirst();
  }

  async touchSession(sessionId: number, now: number): Promise<void> {
    await this.db.updateTable('operator_sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute();
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('operator_sessions').where('token_hash', '=', tokenHash).execute();
  }

  async deleteSessionsOf(operatorId: number): Promise<void> {
    await this.db.deleteFrom('operator_sessions').where('operator_id', '=', operatorId).execute();
  }

  async deleteDeadSessions(now: number, idleSince: number): Promise<void> {
    await this.db
      .deleteFrom('operator_sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleSince)]))
      .execute();
  }

  async insertApiToken(token: { name: string; tokenHash: string; role: string; createdBy: number; now: number }) {
    const row = await this.db
      .insertInto('api_tokens')
      .values({
        name: token.name,
        token_hash: token.tokenHash,
        role: token.role,
        created_by: token.createdBy,
        created_at: token.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** A token not revoked, whose maker is not disabled. */
  findLiveApiToken(tokenHash: string): Promise<ApiTokenRow | undefined> {
    return this.db
      .selectFrom('api_tokens as t')
      .innerJoin('operators as o', 'o.id', 't.created_by')
      .select(['t.id as id', 't.role as role', 't.last_used_at as last_used_at', 'o.id as operator_id', 'o.email'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.revoked_at', 'is', null)
      .where('o.disabled', '=', 0)
      .executeTakeFirst();
  }

  async touchApiToken(id: number, now: number): Promise<void> {
    await this.db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
  }

  /** False when there is no such token or it was revoked already. */
  async revokeApiToken(id: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Tokens not revoked (or the one of `id`), oldest first, with their makers' emails; never their hashes. */
  listLiveApiTokens(id?: number) {
    let query = this.db
      .selectFrom('api_tokens as t')
      .innerJoin('operators as o', 'o.id', 't.created_by')
      .select(['t.id', 't.name', 't.role', 't.created_by', 't.created_at', 't.last_used_at', 'o.email'])
      .where('t.revoked_at', 'is', null)
      .orderBy('t.id');
    if (id !== undefined) query = query.where('t.id', '=', id);
    return query.execute();
  }
}
