import type { Logger } from '../log.ts';
import { memoryLimits } from './memory.ts';
import { redisLimits } from './redis.ts';
import type { Limits } from './types.ts';

export type { Cache, Limits, RateDecision, RateLimiter, RateRule, RuleChain } from './types.ts';

export function createLimits(redisUrl: string | undefined, logger: Logger, keyPrefix?: string): Limits {
  return redisUrl ? redisLimits({ url: redisUrl, logger, keyPrefix }) : memoryLimits();
}
