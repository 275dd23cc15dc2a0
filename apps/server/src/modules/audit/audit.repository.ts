import type { Insertable, Selectable } from 'kysely';
import type { AuditLogTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

export type AuditRow = Selectable<AuditLogTable>;
export type AuditFilter = {
  operatorId?: number;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: number;
  to?: number;
  /** Entries older than this one (its id). */
  cursor?: number;
  limit: number;
};

export class AuditRepository {
  constructor(private readonly db: Executor) {}

  with(tx: Executor): AuditRepository {
    return new AuditRepository(tx);
  }

  async insert(entry: Insertable<AuditLogTable>): Promise<void> {
    await this.db.insertInto('audit_log').values(entry).execute();
  }

  /** Newest first, by id: entries are written in time order, so ids follow it. */
  list(filter: AuditFilter): Promise<AuditRow[]> {
    let query = this.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(filter.limit);
    if (filter.operatorId !== undefined) query = query.where('operator_id', '=', filter.operatorId);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    if (filter.targetType !== undefined) query = query.where('target_type', '=', filter.targetType);
    if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
    if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
    if (filter.cursor !== undefined) query = query.where('id', '<', filter.cursor);
    return query.execute();
  }
}
