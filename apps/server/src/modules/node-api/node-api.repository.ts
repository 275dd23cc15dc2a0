import type { Executor } from '../../db/transaction.js';

/** The bytes a node carried on one UTC day (`day`: its 00:00 UTC), before the node's rate. */
export type NodeTrafficDay = { day: number; node_id: number; upload: number; download: number };

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

  /** Adds a push's bytes to its node's day, in the push's transaction `tx`. */
  async addNodeTraffic(tx: Executor, traffic: NodeTrafficDay): Promise<void> {
    await tx
      .insertInto('node_traffic_days')
      .values(traffic)
      .onConflict((conflict) =>
        conflict.columns(['day', 'node_id']).doUpdateSet((eb) => ({
          upload: eb('node_traffic_days.upload', '+', eb.ref('excluded.upload')),
          download: eb('node_traffic_days.download', '+', eb.ref('excluded.download')),
        })),
      )
      .execute();
  }

  // The console's overview (read only).

  /** Every node's bytes per day since `since`, summed over the nodes. */
  async trafficByDay(since: number): Promise<Array<{ day: number; upload: number; download: number }>> {
    const rows = await this.db
      .selectFrom('node_traffic_days')
      .select((eb) => [
        'day',
        eb.fn.sum<number | string>('upload').as('upload'),
        eb.fn.sum<number | string>('download').as('download'),
      ])
      .where('day', '>=', since)
      .groupBy('day')
      .orderBy('day')
      .execute();
    return rows.map((row) => ({ day: Number(row.day), upload: Number(row.upload), download: Number(row.download) }));
  }

  /** Each node's bytes since `since`, the busiest first. */
  async trafficByNode(since: number): Promise<Array<{ nodeId: number; upload: number; download: number }>> {
    const rows = await this.db
      .selectFrom('node_traffic_days')
      .select((eb) => [
        'node_id',
        eb.fn.sum<number | string>('upload').as('upload'),
        eb.fn.sum<number | string>('download').as('download'),
      ])
      .where('day', '>=', since)
      .groupBy('node_id')
      .execute();
    return rows
      .map((row) => ({ nodeId: row.node_id, upload: Number(row.upload), download: Number(row.download) }))
      .sort((a, b) => b.upload + b.download - (a.upload + a.download) || a.nodeId - b.nodeId);
  }
}
