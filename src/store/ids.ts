// Ids and times are made in TypeScript, never by the database (portable across dialects).
import { randomPooled } from '../crypto/random.ts';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/**
 * A time-ordered, opaque id: `<prefix>_` + 48-bit millisecond time + 80 random bits, base32.
 * Time order keeps B-tree inserts local; the random part makes ids unguessable across tenants.
 */
export function newId(prefix: string, at: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, Math.floor(at / 2 ** 32));
  view.setUint32(2, at >>> 0);
  bytes.set(randomPooled(10), 6);
  return `${prefix}_${base32(bytes)}`;
}

export function now(): number {
  return Date.now();
}
