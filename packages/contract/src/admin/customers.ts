import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { OrderStatusSchema } from '../orders/order.schema.js';

/** Days an operator may add at once (the command line's `user add-days` takes the same). */
export const CUSTOMER_MAX_DAYS = 36_500;
/** GB (GiB) an operator may add at once, in steps of 0.001 (the command line's `user add-traffic` takes the same). */
export const CUSTOMER_MAX_TRAFFIC_GB = 1_000_000;

/** A customer's account as operators see it: never a password hash. Times are milliseconds since the epoch. */
export const CustomerAccountSchema = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  banned: z.boolean(),
  createdAt: z.number(),
});
export type CustomerAccount = z.infer<typeof CustomerAccountSchema>;

const id = z.coerce.number().check(z.int(), z.positive(), z.maximum(2_147_483_647));

export const CustomersQuerySchema = z.object({
  /** Part of the email or of the name (any case), or the customer's id. */
  search: z.optional(z.string().check(z.maxLength(254))),
  /** `true`: only banned customers. */
  banned: z.optional(z.stringbool()),
  /** The `next` of the previous page: the customers older than its last. */
  cursor: z.optional(id),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50),
});
export type CustomersQuery = z.infer<typeof CustomersQuerySchema>;

/** Customers, newest first, a page at a time (`next` null at the end). */
export const adminGetCustomers = endpoint({
  method: 'GET',
  path: '/api/customers',
  query: CustomersQuerySchema,
  response: envelopeOf(z.object({ customers: z.array(CustomerAccountSchema), next: z.nullable(z.number()) })),
});

/** A plan's name in each request language. */
const LocalizedNameSchema = z.object({ en: z.string(), 'pt-BR': z.string(), 'zh-Hans': z.string() });

/** Running now, waiting its turn, run out of time, or ended early (refund, chargeback). */
export const CustomerPackageStateSchema = z.enum(['running', 'queued', 'expired', 'ended']);

export const CustomerPackageSchema = z.object({
  id: z.number(),
  orderId: z.number(),
  planNames: LocalizedNameSchema,
  group: z.enum(['traffic', 'durational']),
  state: CustomerPackageStateSchema,
  startsAt: z.number(),
  endsAt: z.number(),
  /** Bytes of the current period (of the last one for a package that is over), and the allowance. */
  trafficUsed: z.number(),
  trafficTotal: z.number(),
});
export type CustomerPackage = z.infer<typeof CustomerPackageSchema>;

/** One of the customer's recent orders; the amount in major units. */
export const CustomerOrderSchema = z.object({
  no: z.string(),
  status: z.catch(OrderStatusSchema, 'unused'),
  amount: z.number(),
  currency: z.string(),
  gateway: z.nullable(z.string()),
  createdAt: z.number(),
});
export type CustomerOrder = z.infer<typeof CustomerOrderSchema>;

/** A sign-in session of the customer: never its token. */
export const CustomerSessionSchema = z.object({ id: z.number(), createdAt: z.number(), expiresAt: z.number() });
export type CustomerSession = z.infer<typeof CustomerSessionSchema>;

/** A customer's page: the account, every package in the order they run, recent orders, sessions and the link. */
export const CustomerDetailsSchema = z.object({
  account: CustomerAccountSchema,
  packages: z.array(CustomerPackageSchema),
  /** Newest first, the most recent ones. */
  orders: z.array(CustomerOrderSchema),
  /** Newest first. */
  sessions: z.array(CustomerSessionSchema),
  /** The subscription link, in full, as the customer's apps import it. */
  subscriptionUrl: z.string(),
});
export type CustomerDetails = z.infer<typeof CustomerDetailsSchema>;

export const CustomerIdParamsSchema = z.object({ id });

const customerCall = <const M extends 'GET' | 'POST', const P extends string>(method: M, path: P) =>
  endpoint({ method, path, params: CustomerIdParamsSchema, response: envelopeOf(CustomerDetailsSchema) });

/** A customer's page; an unknown customer answers 404. */
export const adminGetCustomer = customerCall('GET', '/api/customers/:id');

/** Bans the customer: signed out everywhere, no sign-in, no link, and nodes drop them at their next pull. */
export const adminBanCustomer = customerCall('POST', '/api/customers/:id/ban');

/** Lifts a ban: the customer may sign in again and is served while a package runs. */
export const adminUnbanCustomer = customerCall('POST', '/api/customers/:id/unban');

/** A new subscription link and proxy UUID: the old link stops at once, nodes drop the old UUID at their next pull. */
export const adminResetCustomerSubscription = customerCall('POST', '/api/customers/:id/reset-subscription');

export const AddDaysBodySchema = z.object({
  days: z.number().check(z.int(), z.minimum(1), z.maximum(CUSTOMER_MAX_DAYS)),
});
export type AddDaysBody = z.infer<typeof AddDaysBodySchema>;

/** Extends the running package by `days` and moves the queued ones after it (CUSTOMER_NO_RUNNING_PACKAGE if none). */
export const adminAddCustomerDays = endpoint({
  method: 'POST',
  path: '/api/customers/:id/add-days',
  params: CustomerIdParamsSchema,
  body: AddDaysBodySchema,
  response: envelopeOf(CustomerDetailsSchema),
});

/** True for a positive number of GB with at most three decimals (a whole number of MB). */
export const isTrafficGb = (gb: number) =>
  gb > 0 && gb <= CUSTOMER_MAX_TRAFFIC_GB && Math.abs(gb * 1000 - Math.round(gb * 1000)) < 1e-6;

export const AddTrafficBodySchema = z.object({ gb: z.number().check(z.refine(isTrafficGb)) });
export type AddTrafficBody = z.infer<typeof AddTrafficBodySchema>;

/**
 * Raises the running package's allowance by `gb` GB (GiB; of every period, for a durational package);
 * CUSTOMER_NO_RUNNING_PACKAGE when nothing runs.
 */
export const adminAddCustomerTraffic = endpoint({
  method: 'POST',
  path: '/api/customers/:id/add-traffic',
  params: CustomerIdParamsSchema,
  body: AddTrafficBodySchema,
  response: envelopeOf(CustomerDetailsSchema),
});

/** Ends one of the customer's sessions; a session not theirs answers 404. */
export const adminRevokeCustomerSession = endpoint({
  method: 'DELETE',
  path: '/api/customers/:id/sessions/:sessionId',
  params: z.object({ id, sessionId: id }),
  response: envelopeOf(CustomerDetailsSchema),
});
