import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { OrderSchema } from '../orders/order.schema.js';
import { PaymentMethodSchema, SANDBOX_ACTIONS } from './payment.schema.js';

/** The hosted checkout page, `/shopDetails/{lang}/{orderNo}`; it authenticates by the `token` cookie. */
export const CHECKOUT_PATH_PREFIX = '/shopDetails';
export const CHECKOUT_COOKIE = 'token';

export const OrderNoParamsSchema = z.object({ orderNo: z.string().check(z.maxLength(64)) });

export const CheckoutSchema = z.object({
  order: OrderSchema,
  methods: z.array(PaymentMethodSchema),
  /** False once the order can no longer be paid (paid, cancelled, timed out…). */
  payable: z.boolean(),
});
export type Checkout = z.infer<typeof CheckoutSchema>;

export const getCheckout = endpoint({
  method: 'GET',
  path: '/payment/checkout/:orderNo',
  params: OrderNoParamsSchema,
  response: envelopeOf(CheckoutSchema),
});

/** Starts paying with a method: the order turns `paying`; `redirect` is the gateway's page, if it has one. */
export const startPayment = endpoint({
  method: 'POST',
  path: '/payment/checkout/:orderNo/pay',
  params: OrderNoParamsSchema,
  body: z.object({ method: z._default(z.string().check(z.maxLength(32)), '') }),
  response: envelopeOf(z.object({ redirect: z.nullable(z.string()) })),
});

/** The sandbox gateway's buttons: approve → success, decline → failed, pending → doing. */
export const sandboxAction = endpoint({
  method: 'POST',
  path: '/payment/sandbox/:orderNo/:action',
  params: z.object({ orderNo: z.string().check(z.maxLength(64)), action: z.enum(SANDBOX_ACTIONS) }),
  response: envelopeOf(z.object({ status: z.string() })),
});
