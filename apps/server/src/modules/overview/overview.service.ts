import { OVERVIEW_WINDOW_DAYS, type Overview, type RequestLanguage, type Revenue } from '@mutenet/contract';
import { pickLanguage } from '../../lib/localized.js';
import { formatMinor } from '../../lib/money.js';
import type { AuthService } from '../auth/auth.service.js';
import type { NodeApiService } from '../node-api/node-api.service.js';
import type { NodesService } from '../nodes/nodes.service.js';
import type { OrdersService } from '../orders/orders.service.js';
import type { SubscriptionService } from '../subscription/subscription.service.js';

export type OverviewDeps = {
  orders: OrdersService;
  auth: AuthService;
  subscriptions: SubscriptionService;
  nodes: NodesService;
  nodeApi: NodeApiService;
};

const WINDOW_DAYS = [OVERVIEW_WINDOW_DAYS.today, OVERVIEW_WINDOW_DAYS.days7, OVERVIEW_WINDOW_DAYS.days30];
/** Orders by status and traffic are counted over the last 30 UTC days. */
const PERIOD_DAYS = OVERVIEW_WINDOW_DAYS.days30;

/** The console's overview: each module counts its own figures in SQL; this only puts them together. */
export class OverviewService {
  constructor(private readonly deps: OverviewDeps) {}

  async overview(language: RequestLanguage): Promise<Overview> {
    const { orders, auth, subscriptions, nodes, nodeApi } = this.deps;
    const [
      paid,
      ordersByStatus,
      [today = 0, days7 = 0, days30 = 0],
      runningSubscriptions,
      online,
      byDay,
      byNode,
      known,
    ] = await Promise.all([
      orders.paidTotals(WINDOW_DAYS),
      orders.countByStatusInDays(PERIOD_DAYS),
      auth.countNewInDays(WINDOW_DAYS),
      subscriptions.countCustomersRunning(),
      nodes.onlineTally(),
      nodeApi.trafficByDay(PERIOD_DAYS),
      nodeApi.trafficByNode(PERIOD_DAYS),
      nodes.all(),
    ]);
    const names = new Map(known.map((node) => [node.id, pickLanguage(node.names, language)]));
    return {
      revenue: revenueOf(paid),
      ordersByStatus,
      newCustomers: { today, days7, days30 },
      runningSubscriptions,
      nodes: online,
      trafficByDay: byDay,
      trafficByNode: byNode.map((row) => ({ ...row, name: names.get(row.nodeId) ?? null })),
    };
  }
}

/**
 * One entry per currency. A currency's orders keep the decimals it had when they were made: sums of different
 * decimals are brought to the most of them before they are added.
 */
function revenueOf(paid: Array<{ currency: string; decimals: number; totals: number[] }>): Revenue[] {
  const byCurrency = new Map<string, { decimals: number; totals: number[] }>();
  for (const { currency, decimals, totals } of paid) {
    const seen = byCurrency.get(currency);
    if (!seen) {
      byCurrency.set(currency, { decimals, totals });
      continue;
    }
    const most = Math.max(seen.decimals, decimals);
    const scale = (values: number[], from: number) => values.map((value) => value * 10 ** (most - from));
    const added = scale(totals, decimals);
    byCurrency.set(currency, {
      decimals: most,
      totals: scale(seen.totals, seen.decimals).map((value, index) => value + (added[index] ?? 0)),
    });
  }
  return [...byCurrency].map(([currency, { decimals, totals }]) => {
    const [today = '0', days7 = '0', days30 = '0'] = totals.map((total) => formatMinor(total, decimals));
    return { currency, today, days7, days30 };
  });
}
