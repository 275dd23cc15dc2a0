import type { Executor } from '../../db/transaction.js';

/** A traffic push as recorded with the traffic it counted. */
export type PushRecord = { id: string; node_id: number; digest: string; pushed_at: number };

export class NodeApiRepository {
  constructor(private readonly db: Executor) {}

  /** Records a push; `tx` is the transaction that counts its traffic. */
  async recordPush(tx: Executor, push: PushRecord): Promise<void> {
    await tx.insertInto('traffic_pushes').values(push).execute();
  }

  /** The digest of the push recorded under this id, or undefined when none was committed. */
  async pushDigest(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('traffic_pushes').select('digest').where('id', '=', id).executeTakeFirst();
    return row?.digest;
  }

  /** Forgets the pushes recorded before `time`. */
  async prunePushes(time: number): Promise<void> {
    await this.db.deleteFrom('traffic_pushes').where('pushed_at', '<', time).execute();
  }
}
