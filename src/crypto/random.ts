// Random bytes for tokens, ids and nonces, drawn from one pre-filled pool. `randomBytes(n)` asks the
// CSPRNG once per call; a refresh needs five small draws (two tokens, two ids, an AES-GCM nonce),
// and the calls cost more than the bytes (~1.5 µs each, 5% of the W4 profile). The pool is filled
// from the same source (`randomFillSync`), every byte is handed out once and then overwritten by the
// next fill, as Node does for randomUUID. The bytes are as strong as randomBytes'; the pool is for
// the many small draws on request paths (key material made once at start uses randomBytes).
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `n` fresh random bytes (a copy; at most the pool's size). */
export function randomPooled(n: number): Buffer {
  if (!Number.isInteger(n) || n < 1 || n > POOL_BYTES) throw new RangeError(`randomPooled: 1 to ${POOL_BYTES} bytes, not ${n}`);
  if (offset + n > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = Buffer.from(pool.subarray(offset, offset + n));
  pool.fill(0, offset, offset + n);
  offset += n;
  return out;
}
