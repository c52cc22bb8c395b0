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

export interface Cache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface Limits {
  readonly kind: 'memory' | 'redis';
  limiter(rule: RateRule): RateLimiter;
  cache: Cache;
  /** `ok`, or `down` when the shared backend cannot be reached (memory fallback in use). */
  health(): Promise<'ok' | 'down'>;
  close(): Promise<void>;
}
