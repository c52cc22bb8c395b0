// In-process limits: the default without REDIS_URL, and the fallback while Redis is down.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Cache, Limits, RateDecision, RateLimiter, RateRule, RuleChain } from './types.ts';
import { checkChainKeys, checkChainRules, consumeInOrder } from './chain.ts';

export function decision(res: RateLimiterRes, allowed: boolean): RateDecision {
  return {
    allowed,
    remaining: allowed ? res.remainingPoints : 0,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

/** Turns rate-limiter-flexible's "reject with a result" into a decision; real errors propagate. */
export async function consumeWith(consume: () => Promise<RateLimiterRes>): Promise<RateDecision> {
  try {
    return decision(await consume(), true);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return decision(rejection, false);
    throw rejection;
  }
}

export function memoryRateLimiter(rule: RateRule, prefix = ''): { limiter: RateLimiter; raw: RateLimiterMemory } {
  const raw = new RateLimiterMemory({ keyPrefix: `${prefix}${rule.name}`, points: rule.points, duration: rule.durationSeconds });
  return { raw, limiter: { consume: (key, cost = 1) => consumeWith(() => raw.consume(key, cost)) } };
}

/** A chain of in-process limiters (see RuleChain). */
export function memoryChain(rules: readonly RateRule[], prefix = ''): RuleChain {
  checkChainRules(rules);
  const limiters = rules.map((rule) => memoryRateLimiter(rule, prefix).limiter);
  return {
    async consume(keys) {
      checkChainKeys(rules, keys);
      return consumeInOrder(limiters, keys);
    },
  };
}

/** A bounded map with per-entry expiry; the oldest entries go first when it is full. */
export class MemoryCache implements Cache {
  readonly #entries = new Map<string, { value: string; expiresAt: number }>();
  readonly #maxEntries: number;
  constructor(maxEntries = 10_000) {
    this.#maxEntries = maxEntries;
  }
  async get(key: string) {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return hit.value;
  }
  async set(key: string, value: string, ttlSeconds: number) {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  }
  async delete(key: string) {
    this.#entries.delete(key);
  }
}

export function memoryLimits(): Limits {
  return {
    kind: 'memory',
    limiter: (rule) => memoryRateLimiter(rule).limiter,
    chain: (rules) => memoryChain(rules),
    cache: new MemoryCache(),
    health: async () => 'ok',
    close: async () => {},
  };
}
