import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { EmptyEnvelopeSchema } from '../envelope.js';

/** The subscription link, as the whole body (text/plain). */
export const getSubscribeUrl = endpoint({
  method: 'GET',
  path: '/mutenet/user/subscribe/url',
  response: z.string(),
});

/** A new link (the old one stops at once) and a new proxy credential; `msg` says so. */
export const resetSubscribeUrl = endpoint({
  method: 'PUT',
  path: '/mutenet/user/subscribe/url',
  response: EmptyEnvelopeSchema,
});
