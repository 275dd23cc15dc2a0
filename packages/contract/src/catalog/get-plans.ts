import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { PlansSchema } from './catalog.schema.js';

/** The visible plans in their two groups. */
export const getPlans = endpoint({
  method: 'GET',
  path: '/mutenet/packages',
  response: envelopeOf(PlansSchema),
});
