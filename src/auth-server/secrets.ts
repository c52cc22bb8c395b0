// Opaque credentials with typed prefixes, 256 bits of randomness each (AS-23), stored only as an
// HMAC-SHA-256 under config.secrets.hash. base64url keeps them to unreserved characters, so naive
// Basic-auth clients that skip form-encoding still work (AS-36).
import { randomPooled } from '../crypto/random.ts';
import { keyedHash as keyedHashOfParts } from '../crypto/keyed-hash.ts';

export const PREFIXES = {
  access: 'aat_',
  refresh: 'art_',
  code: 'aac_',
  clientSecret: 'acs_',
  registration: 'arg_',
  handle: 'aah_',
} as const;

export type SecretKind = keyof typeof PREFIXES;

export function newSecret(kind: SecretKind): string {
  return PREFIXES[kind] + randomPooled(32).toString('base64url');
}

/** True when the value carries the kind's prefix and the right length (cheap pre-check before a lookup). */
export function looksLike(kind: SecretKind, value: string): boolean {
  return value.startsWith(PREFIXES[kind]) && value.length === PREFIXES[kind].length + 43;
}

/** The only form in which a secret is stored or looked up. */
export function keyedHash(key: string, value: string): string {
  return keyedHashOfParts(key, value);
}

