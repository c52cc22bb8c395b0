// The one constant-time string comparison: for hashes, CSRF tokens and browser bindings, so how long
// a comparison takes says nothing about how much of a guess was right.
import { timingSafeEqual } from 'node:crypto';

/** Whether two strings are equal, in time that depends only on their lengths; a missing first value is never equal. */
export function constantTimeEqual(a: string | null | undefined, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
