import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';

export const NODE_ONLINE = 'online';
export const NODE_OFFLINE = 'offline';

export const NodeSchema = z.object({
  name: z.string(),
  /** Comma-separated tags. */
  label: z.string(),
  /** Traffic on the node counts this many times. */
  mag: z.number(),
  /** `online` when its agent called within the last 5 minutes. */
  status: z.string(),
});
export type Node = z.infer<typeof NodeSchema>;

export const getNodes = endpoint({
  method: 'GET',
  path: '/mutenet/user/nodes',
  response: envelopeOf(z.array(NodeSchema)),
});
