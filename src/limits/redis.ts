// Limits shared by all instances through Redis. When Redis cannot be reached, rate limits fall
// back to per-instance memory (with one logged warning per outage) and cache reads miss: the
// service keeps answering rather than failing on a cache.
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Logger } from '../log.ts';
import { consumeWith, memoryRateLimiter } from './memory.ts';
import type { Cache, Limits, RateRule } from './types.ts';

export type RedisLimitsOptions = { url: string; keyPrefix?: string; logger: Logger };

export function redisLimits(options: RedisLimitsOptions): Limits {
  const prefix = options.keyPrefix ?? 'aas:';
  const client = new Redis(options.url, {
    // Fail fast instead of queueing commands while disconnected (rate-limiter-flexible's advice).
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    lazyConnect: false,
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (!down) options.logger.warn({ err: error.message }, 'redis unreachable: rate limits fall back to per-instance memory');
    down = true;
  });
  client.on('ready', () => {
    if (down) options.logger.info('redis reachable again: shared rate limits resumed');
    down = false;
  });

  // Right after start the client is still connecting; with the offline queue off a command would
  // fail at once, so the first operations wait (bounded) for the connection to settle either way.
  const settled = (): Promise<void> => {
    if (!['wait', 'connecting', 'connect'].includes(client.status)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off('ready', done);
        client.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, 2500);
      client.once('ready', done);
      client.once('error', done);
    });
  };

  const limiter = (rule: RateRule) => {
    const insurance = memoryRateLimiter(rule, `${prefix}fallback:`).raw;
    const shared = new RateLimiterRedis({
      storeClient: client,
      keyPrefix: `${prefix}rl:${rule.name}`,
      points: rule.points,
      duration: rule.durationSeconds,
      insuranceLimiter: insurance,
    });
    return {
      consume: async (key: string, cost = 1) => {
        await settled();
        return consumeWith(() => shared.consume(key, cost));
      },
    };
  };

  const cache: Cache = {
    async get(key) {
      await settled();
      try {
        return (await client.get(`${prefix}c:${key}`)) ?? undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, value, ttlSeconds) {
      await settled();
      try {
        await client.set(`${prefix}c:${key}`, value, 'EX', Math.max(1, Math.ceil(ttlSeconds)));
      } catch {
        // A cache that cannot write only costs a later miss.
      }
    },
    async delete(key) {
      await settled();
      try {
        await client.del(`${prefix}c:${key}`);
      } catch {
        // Deletes of short-lived entries expire on their own.
      }
    },
  };

  return {
    kind: 'redis',
    limiter,
    cache,
    async health() {
      await settled();
      try {
        await client.ping();
        return 'ok';
      } catch {
        return 'down';
      }
    },
    async close() {
      client.disconnect();
    },
  };
}
