import { endpoint } from '../endpoint.js';
import { EmptyEnvelopeSchema } from '../envelope.js';
import { OrderNoQuerySchema } from './order.schema.js';

/** Closes a `waiting` order of the customer; any other status is refused and nothing changes. */
export const cancelOrder = endpoint({
  method: 'PUT',
  path: '/mutenet/user/orders/cancel',
  query: OrderNoQuerySchema,
  response: EmptyEnvelopeSchema,
});
