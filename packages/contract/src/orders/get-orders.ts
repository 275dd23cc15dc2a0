import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { OrderSchema } from './order.schema.js';

/** The customer's orders, newest first; with `?no=`, the list holding that one order. */
export const getOrders = endpoint({
  method: 'GET',
  path: '/mutenet/user/orders',
  query: z.object({ no: z.string().max(64).optional() }),
  response: envelopeOf(z.array(OrderSchema)),
});
