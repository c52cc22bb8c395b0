// What every RuleChain (types.ts) shares, in memory or on Redis: the checks of its rules and keys,
// and consuming one limiter per rule in order (memory's way, and Redis's fallback).
import type { RateDecision, RateLimiter, RateRule } from './types.ts';

/** A chain has at least one rule: anything else is a programming error, as are keys that do not match its rules. */
export function checkChainRules(rules: readonly RateRule[]): void {
  if (rules.length === 0) throw new Error('a rate-limit chain needs at least one rule');
  // Redis takes whole seconds of expiry (the single limiters round theirs down; 0 means never).
  for (const rule of rules) {
    if (!Number.isSafeInteger(rule.durationSeconds) || rule.durationSeconds < 1) throw new Error(`rate-limit rule ${rule.name}: its window must be whole seconds, at least 1`);
    if (!Number.isSafeInteger(rule.points) || rule.points < 1) throw new Error(`rate-limit rule ${rule.name}: its points must be a whole number, at least 1`);
  }
}

export function checkChainKeys(rules: readonly RateRule[], keys: readonly string[]): void {
  if (keys.length !== rules.length) throw new Error(`a chain of ${rules.length} rules was given ${keys.length} keys`);
}

/** Consumes one key per limiter, in order, stopping at the first refusal; allowed, it reports the fewest points left. */
export async function consumeInOrder(limiters: readonly RateLimiter[], keys: readonly string[]): Promise<RateDecision> {
  let remaining = Infinity;
  for (let i = 0; i < limiters.length; i++) {
    const decided = await limiters[i]!.consume(keys[i]!);
    if (!decided.allowed) return decided;
    remaining = Math.min(remaining, decided.remaining);
  }
  return { allowed: true, remaining, retryAfterSeconds: 0 };
}
