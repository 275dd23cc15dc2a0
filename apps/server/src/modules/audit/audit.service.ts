import type { AuditEntry, AuditQuery } from '@mutenet/contract';
import type { Executor } from '../../db/transaction.js';
import type { AuditRepository, AuditRow } from './audit.repository.js';

/** Who made a change: a signed-in operator, or an API token an owner made (then `tokenId` names it). */
export type AuditActor = { id: number; email: string; tokenId: number | null };

/** One change to record. `before` and `after` hold only the values the change touched. */
export type AuditChange = {
  actor: AuditActor;
  /** What was done, as `<thing>.<verb>`: `customer.ban`, `order.refund`, `plan.update`… */
  action: string;
  target: { type: string; id: string | number };
  before: unknown;
  after: unknown;
  ip: string;
};

/** A change as a module's service describes it; the console adds who made it and from where. */
export type RecordedChange = Omit<AuditChange, 'actor' | 'ip'>;

/**
 * Records a change in the transaction that makes it, so that the change and its record commit together or not at
 * all. The console binds it to the request's operator and address (`request.audit`); a service's change methods take
 * it as their last, optional argument.
 */
export type AuditHook = (executor: Executor, change: RecordedChange) => Promise<void>;

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** The audit log: every change an operator makes, kept in the database, read by owners. */
export class AuditService {
  constructor(private readonly deps: { repository: AuditRepository; now: () => number }) {}

  /**
   * Records a change in the caller's transaction (`executor`), so that the change and its record commit together or
   * not at all.
   */
  record(executor: Executor, change: AuditChange): Promise<void> {
    const { actor, target } = change;
    return this.deps.repository.with(executor).insert({
      operator_id: actor.id,
      token_id: actor.tokenId,
      actor: actor.tokenId === null ? actor.email : `${actor.email} (API token ${actor.tokenId})`,
      action: change.action,
      target_type: target.type,
      target_id: String(target.id),
      before: json(change.before),
      after: json(change.after),
      ip: change.ip,
      created_at: this.deps.now(),
    });
  }

  /** A page of the log, newest first, and the cursor of the next page (null at the end). */
  async list(query: AuditQuery): Promise<{ entries: AuditEntry[]; next: number | null }> {
    const rows = await this.deps.repository.list(query);
    const next = rows.length === query.limit ? (rows.at(-1)?.id ?? null) : null;
    return { entries: rows.map(view), next };
  }
}

function view(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    actor: row.actor,
    operatorId: row.operator_id,
    tokenId: row.token_id,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: parsed(row.before),
    after: parsed(row.after),
    ip: row.ip,
    createdAt: Number(row.created_at),
  };
}
