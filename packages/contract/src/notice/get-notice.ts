import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';

/** The operator's notice in the request's language; empty content when there is none. */
export const getNotice = endpoint({
  method: 'GET',
  path: '/mutenet/notice',
  response: envelopeOf(z.object({ content: z.string() })),
});
