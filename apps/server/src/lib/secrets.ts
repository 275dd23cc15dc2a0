import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** An opaque random token: 256 bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored in place of a token: a lookup by hash needs no constant-time compare. */
export function hashToken(token: string): string {
  return hash('sha256', token);
}

/**
 * Compares two secrets in a time that depends neither on where they differ nor on their lengths: their SHA-256
 * digests, always 32 bytes, are compared in constant time.
 */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}

/**
 * Whether a secret is the one whose `hashToken` is stored, in a time that depends on neither: its digest and the stored
 * one, always 32 bytes, are compared in constant time (one hash, where `sameSecret` of the two digests takes three).
 */
export function matchesHash(secret: string, storedHash: string): boolean {
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === 32 && timingSafeEqual(hash('sha256', secret, 'buffer'), stored);
}
