import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { CurrencySchema } from './catalog.schema.js';

/** The enabled currencies, the default first. */
export const getCurrencies = endpoint({
  method: 'GET',
  path: '/mutenet/payment/currencies',
  response: envelopeOf(z.object({ currencies: z.array(CurrencySchema) })),
});
