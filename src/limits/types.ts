// Rate limits and short-lived caches shared by every instance (Redis) or kept per process (memory).

export type RateDecision = {
  allowed: boolean;
  /** Points left in the current window (0 when refused). */
  remaining: number;
  /** Whole seconds until the window frees a point; the value for `Retry-After`. */
  retryAfterSeconds: number;
};

export type RateRule = {
  /** Names the counter family; keys of different rules never collide. */
  name: string;
  points: number;
  durationSeconds: number;
};

export interface RateLimiter {
  consume(key: string, cost?: number): Promise<RateDecision>;
}

/**
 * Several rules, each with its own key, consumed in order as one operation: the first rule that
 * refuses ends it, with its point counted and the later rules' untouched, exactly as consuming
 * them one by one would. On Redis it is one round trip, where one limiter per rule is one each.
 */
export interface RuleChain {
  /** One key per rule, in the rules' order. */
  consume(keys: readonly string[]): Promise<RateDecision>;
}

export interface Cache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface Limits {
  readonly kind: 'memory' | 'redis';
  limiter(rule: RateRule): RateLimiter;
  chain(rules: readonly RateRule[]): RuleChain;
  cache: Cache;
  /** `ok`, or `down` when the shared backend cannot be reached (memory fallback in use). */
  health(): Promise<'ok' | 'down'>;
  close(): Promise<void>;
}
