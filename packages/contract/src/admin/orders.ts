import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { ORDER_NO_PATTERN, type OrderStatus, OrderStatusSchema } from '../orders/order.schema.js';

/** An order as operators see it. Amounts are major units, times milliseconds since the epoch. */
export const AdminOrderSchema = z.object({
  no: z.string(),
  /** The status as it is now: an unpaid order past its due time shows as `timeout`. */
  status: z.catch(OrderStatusSchema, 'unused'),
  customer: z.object({ id: z.number(), email: z.nullable(z.string()) }),
  plan: z.object({ id: z.number(), name: z.string() }),
  package: z.object({ id: z.number(), label: z.string(), days: z.number(), trafficBytes: z.number() }),
  amount: z.number(),
  currency: z.string(),
  /** The gateway the customer opened, or that paid the order; null for one never opened. */
  gateway: z.nullable(z.string()),
  /** The gateway's id of the payment that paid the order (what a refund names). */
  paymentRef: z.nullable(z.string()),
  createdAt: z.number(),
});
export type AdminOrder = z.infer<typeof AdminOrderSchema>;

/** A gateway's event about an order, as recorded; `applied` is false for one the lifecycle refused or a replay. */
export const AdminPaymentEventSchema = z.object({
  gateway: z.string(),
  eventId: z.string(),
  /** What the gateway reported: success, failed, cancel, doing, refunded or rejected. */
  outcome: z.string(),
  amount: z.nullable(z.number()),
  currency: z.nullable(z.string()),
  applied: z.boolean(),
  receivedAt: z.number(),
});
export type AdminPaymentEvent = z.infer<typeof AdminPaymentEventSchema>;

const id = z.coerce.number().check(z.int(), z.positive(), z.maximum(2_147_483_647));
const time = z.coerce.number().check(z.int(), z.nonnegative(), z.maximum(8_640_000_000_000_000));

/** The `next` of a page: the creation time and id of its last order. */
const CURSOR_PATTERN = /^\d{1,16}\.\d{1,10}$/;

export const AdminOrdersQuerySchema = z.object({
  status: z.optional(OrderStatusSchema),
  currency: z.optional(z.string().check(z.regex(/^[A-Za-z]{3}$/))),
  gateway: z.optional(z.string().check(z.minLength(1), z.maxLength(32))),
  /** Created from and to (exclusive), in milliseconds since the epoch. */
  from: z.optional(time),
  to: z.optional(time),
  /** The customer, by id or by email. */
  userId: z.optional(id),
  email: z.optional(z.string().check(z.minLength(3), z.maxLength(254))),
  /** The `next` of the previous page: the orders older than its last. */
  cursor: z.optional(z.string().check(z.regex(CURSOR_PATTERN))),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50),
});
export type AdminOrdersQuery = z.infer<typeof AdminOrdersQuerySchema>;

/** Orders, newest first, filtered, a page at a time (`next` null at the end). */
export const adminGetOrders = endpoint({
  method: 'GET',
  path: '/api/orders',
  query: AdminOrdersQuerySchema,
  response: envelopeOf(z.object({ orders: z.array(AdminOrderSchema), next: z.nullable(z.string()) })),
});

export const AdminOrderNoParamsSchema = z.object({ no: z.string().check(z.regex(ORDER_NO_PATTERN)) });

export const AdminOrderDetailSchema = z.object({
  order: AdminOrderSchema,
  /** When its payment was applied (by a gateway or an operator); null for an order never paid. */
  paidAt: z.nullable(z.number()),
  /** Oldest first; an operator's changes appear as the gateway `manual`. */
  events: z.array(AdminPaymentEventSchema),
});
export type AdminOrderDetail = z.infer<typeof AdminOrderDetailSchema>;

/** An order and its payment events; an unknown order answers 404. */
export const adminGetOrder = endpoint({
  method: 'GET',
  path: '/api/orders/:no',
  params: AdminOrderNoParamsSchema,
  response: envelopeOf(AdminOrderDetailSchema),
});

/**
 * Every change to an order is sent with `{ confirm: true }`, which the console adds only once the operator has
 * confirmed in its dialog; a body without it is refused (400) and changes nothing.
 */
/**
 * Every status of an order that has not been paid: money that arrives late (after the order timed out, was cancelled
 * or failed) still pays it, so an operator may mark any of them paid.
 */
export const UNPAID_ORDER_STATUSES: readonly OrderStatus[] = [
  'waiting',
  'paying',
  'doing',
  'failed',
  'cancel',
  'timeout',
  'close',
];

export const ConfirmBodySchema = z.object({ confirm: z.literal(true) });

/**
 * Records a payment the operator saw arrive: an unpaid order turns `success` and its package starts (or queues), as a
 * gateway's success would; once only (ORDER_NOT_UNPAID otherwise).
 */
export const adminMarkOrderPaid = endpoint({
  method: 'POST',
  path: '/api/orders/:no/mark-paid',
  params: AdminOrderNoParamsSchema,
  body: ConfirmBodySchema,
  response: envelopeOf(AdminOrderSchema),
});

/**
 * Refunds a paid order through the gateway that took the money (REFUND_FAILED, nothing changed, when it does not
 * take it), then the package ends. `alreadyRefunded`: the money went back outside the panel, only end the package.
 */
export const adminRefundOrder = endpoint({
  method: 'POST',
  path: '/api/orders/:no/refund',
  params: AdminOrderNoParamsSchema,
  body: z.object({ confirm: z.literal(true), alreadyRefunded: z._default(z.boolean(), false) }),
  response: envelopeOf(AdminOrderSchema),
});

/** Records a chargeback (a dispute the customer won) of a paid order: it turns `rejected` and its package ends. */
export const adminChargebackOrder = endpoint({
  method: 'POST',
  path: '/api/orders/:no/chargeback',
  params: AdminOrderNoParamsSchema,
  body: ConfirmBodySchema,
  response: envelopeOf(AdminOrderSchema),
});
