import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { OrderSchema } from './order.schema.js';

/** The customer's orders, newest first; with `?no=`, the list holding that one order. */
export const getOrders = endpoint({
  method: 'GET',
  path: '/mutenet/user/orders',
  query: z.object({ no: z.optional(z.string().check(z.maxLength(64))) }),
  response: envelopeOf(z.array(OrderSchema)),
});
