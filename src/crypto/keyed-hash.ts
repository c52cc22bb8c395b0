// The one keyed hash: HMAC-SHA-256 under config.secrets.hash, base64url. Tokens, codes, client
// secrets, session ids and upstream state are stored and looked up only in this form. Several parts
// are joined by NUL, so identity's (purpose, value) hashes and the auth server's single-value ones
// come from the same function, byte for byte as before: no stored hash changes.
import { createHmac } from 'node:crypto';

export function keyedHash(key: string, ...parts: [string, ...string[]]): string {
  return createHmac('sha256', key).update(parts.join('\0')).digest('base64url');
}
