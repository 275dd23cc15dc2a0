import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { PackageStatSchema } from './subscription.schema.js';

/** The customer's live packages: the running one first, then the queued ones in the order they start. */
export const getPackageStat = endpoint({
  method: 'GET',
  path: '/mutenet/user/package/stat',
  response: envelopeOf(z.array(PackageStatSchema)),
});
