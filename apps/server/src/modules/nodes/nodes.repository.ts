import type { Executor } from '../../db/transaction.js';

export type NodeRow = {
  id: number;
  names: string;
  labels: string;
  rate: number;
  protocol: string;
  host: string;
  port: number;
  settings: string;
  visible: number;
  sort: number;
  token_hash: string;
};

export type NewNode = Omit<NodeRow, 'id'>;

const COLUMNS = [
  'id',
  'names',
  'labels',
  'rate',
  'protocol',
  'host',
  'port',
  'settings',
  'visible',
  'sort',
  'token_hash',
] as const;

export class NodesRepository {
  constructor(private readonly db: Executor) {}

  /** The same queries on a transaction. */
  with(executor: Executor): NodesRepository {
    return new NodesRepository(executor);
  }

  list(): Promise<NodeRow[]> {
    return this.db.selectFrom('nodes').select(COLUMNS).orderBy('sort').orderBy('id').execute();
  }

  find(id: number): Promise<NodeRow | undefined> {
    return this.db.selectFrom('nodes').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  async insert(node: NewNode, now: number): Promise<number> {
    const row = await this.db
      .insertInto('nodes')
      .values({ ...node, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, changes: Partial<NewNode>, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('nodes')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async remove(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('nodes').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
