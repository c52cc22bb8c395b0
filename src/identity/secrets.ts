// Keyed hashes and random values for identity secrets. Session ids, upstream `state` values and the
// browser binding are stored only as HMAC-SHA-256 under config.secrets.hash.
import { createHmac, randomBytes } from 'node:crypto';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function keyedHash(key: string, purpose: string, value: string): string {
  return createHmac('sha256', key).update(purpose).update('\0').update(value).digest('base64url');
}

/** Random tokens we issue are base64url of 32 bytes; anything else is not worth a lookup. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
