// Per-address limit on invalid access tokens at /mcp. Guessing a 256-bit token is hopeless, but a
// client (or a flood) that keeps sending dead tokens costs a keyed hash and a database lookup each
// time and fills the logs. Failures are counted per address in the shared limiter; once an address
// is over, this instance answers its requests 429 without verifying anything until the window
// frees it. A missing token is not counted: it is every client's first, discovery request.
import type { RateDecision, RateLimiter, RateRule } from '../../limits/index.ts';

export const invalidTokenRule = (perMinute: number): RateRule => ({ name: 'mcp-invalid-token', points: perMinute, durationSeconds: 60 });

/** Addresses refused locally, at most this many (the oldest go first). */
const MAX_BLOCKED = 10_000;

export type InvalidTokenLimit = {
  /** Seconds until the address may try again, when it is over the limit; else undefined. */
  blockedFor(address: string, at?: number): number | undefined;
  /** Counts one invalid token from the address; the decision says whether it is now over. */
  record(address: string, at?: number): Promise<RateDecision>;
};

export function invalidTokenLimit(limiter: RateLimiter): InvalidTokenLimit {
  const blocked = new Map<string, number>();
  return {
    blockedFor(address, at = Date.now()) {
      const until = blocked.get(address);
      if (until === undefined) return undefined;
      if (until <= at) {
        blocked.delete(address);
        return undefined;
      }
      return Math.max(1, Math.ceil((until - at) / 1000));
    },
    async record(address, at = Date.now()) {
      const decision = await limiter.consume(address);
      if (!decision.allowed) {
        blocked.delete(address);
        blocked.set(address, at + decision.retryAfterSeconds * 1000);
        if (blocked.size > MAX_BLOCKED) blocked.delete(blocked.keys().next().value as string);
      }
      return decision;
    },
  };
}
