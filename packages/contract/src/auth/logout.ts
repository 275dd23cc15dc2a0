import { endpoint } from '../endpoint.js';
import { EmptyEnvelopeSchema } from '../envelope.js';

/** Revokes the token the call is sent with. */
export const logout = endpoint({
  method: 'POST',
  path: '/mutenet/logout',
  response: EmptyEnvelopeSchema,
});
