// PKCE (RFC 7636), S256 only (AS-18, AS-19).
import { createHash } from 'node:crypto';
import { constantTimeEqual } from '../crypto/constant-time.ts';

/** RFC 7636 §4.1: 43–128 characters of [A-Za-z0-9-._~]. */
export const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** BASE64URL(SHA256(verifier)) is exactly 43 characters of the base64url alphabet. */
export const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  return constantTimeEqual(challenge, s256(verifier));
}
