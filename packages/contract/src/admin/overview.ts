import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { OrderStatusSchema } from '../orders/order.schema.js';

/**
 * The windows the overview counts in. Days are UTC days, whatever the operator's time zone: `today` began at 00:00
 * UTC, `days7` is today and the six days before it, `days30` today and the 29 before it.
 */
export const OVERVIEW_WINDOWS = ['today', 'days7', 'days30'] as const;
/** The same windows in days. */
export const OVERVIEW_WINDOW_DAYS = { today: 1, days7: 7, days30: 30 } as const;

const PerWindowCountSchema = z.object({ today: z.number(), days7: z.number(), days30: z.number() });

/**
 * One currency's revenue: the amounts of the orders paid in each window (paid when they moved to `success`) that are
 * still paid, as exact decimals in major units ("12.90"). An order refunded or charged back later leaves the figures
 * of the days it was paid on: its money went back.
 */
export const RevenueSchema = z.object({
  currency: z.string(),
  today: z.string(),
  days7: z.string(),
  days30: z.string(),
});
export type Revenue = z.infer<typeof RevenueSchema>;

/** Bytes: what the nodes carried, before a node's rate multiplies them into customers' usage. */
const TrafficSchema = z.object({ upload: z.number(), download: z.number() });

export const OverviewSchema = z.object({
  /** One entry per currency paid in within the last 30 days, by currency code. */
  revenue: z.array(RevenueSchema),
  /** The orders made in the last 30 days, by their status now; every status listed. */
  ordersByStatus: z.record(OrderStatusSchema, z.number()),
  /** Customers who signed up in each window. */
  newCustomers: PerWindowCountSchema,
  /** Customers with a package running now (started, not past its end, not ended by a refund or chargeback). */
  runningSubscriptions: z.number(),
  /** Every node, hidden ones too: online when its agent called the node API within the last 5 minutes. */
  nodes: z.object({ online: z.number(), offline: z.number() }),
  /** Each of the last 30 UTC days, oldest first (`day`: its 00:00 UTC in milliseconds since the epoch). */
  trafficByDay: z.array(z.extend(TrafficSchema, { day: z.number() })),
  /**
   * Each node that carried traffic in the last 30 UTC days, the busiest first; `name` in the request's language,
   * null for a node removed since.
   */
  trafficByNode: z.array(z.extend(TrafficSchema, { nodeId: z.number(), name: z.nullable(z.string()) })),
});
export type Overview = z.infer<typeof OverviewSchema>;

/** How the business and the network are doing, at a glance (owners and managers). */
export const adminGetOverview = endpoint({
  method: 'GET',
  path: '/api/overview',
  response: envelopeOf(OverviewSchema),
});
