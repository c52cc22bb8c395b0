// Keyed hashes and random values for identity secrets. Session ids, upstream `state` values and the
// browser binding are stored only as HMAC-SHA-256 under config.secrets.hash.
import { randomPooled } from '../crypto/random.ts';
import { keyedHash as keyedHashOfParts } from '../crypto/keyed-hash.ts';

export function randomToken(bytes = 32): string {
  return randomPooled(bytes).toString('base64url');
}

/** The purpose keeps one value's hashes apart across uses (a session id never matches a state). */
export function keyedHash(key: string, purpose: string, value: string): string {
  return keyedHashOfParts(key, purpose, value);
}

/** Random tokens we issue are base64url of 32 bytes; anything else is not worth a lookup. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
