import { hash } from 'node:crypto';

/** The quoted SHA-1 of the bytes an agent pulls: the `ETag` it keeps and sends back in `If-None-Match`. */
export function etagOf(body: Buffer): string {
  return `"${hash('sha1', body)}"`;
}
