// PKCE as a client does it (RFC 7636 §4.1, §4.2): a random code verifier and its S256 challenge.
import { createHash, randomBytes } from 'node:crypto';

/** The S256 code challenge of a verifier: BASE64URL(SHA256(verifier)). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** A fresh verifier (32 random bytes, 43 characters) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}
