// Limits shared by all instances through Redis. When Redis cannot be reached, rate limits fall
// back to per-instance memory (with one logged warning per outage) and cache reads miss: the
// service keeps answering rather than failing on a cache.
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../log.ts';
import { consumeWith, decision, memoryRateLimiter } from './memory.ts';
import { checkChainKeys, checkChainRules, consumeInOrder } from './chain.ts';
import type { Cache, Limits, RateRule, RuleChain } from './types.ts';

/**
 * A chain's rules in one script (RuleChain): for each key in order, rate-limiter-flexible's own
 * steps (RateLimiterRedis: a counter created with its window's expiry, incremented, its expiry
 * read and set if it has none), on the keys it would use, so a chain and a limiter of the same
 * rule share one counter (across instances and versions too). ARGV holds each rule's points and
 * window seconds. Returns {0, fewest points left} when every rule allows, else {the refusing
 * rule's place from 1, milliseconds until its window ends}.
 */
const CHAIN_SCRIPT = `local fewest = -1
for i = 1, #KEYS do
  local points = tonumber(ARGV[2 * i - 1])
  local seconds = ARGV[2 * i]
  redis.call('set', KEYS[i], 0, 'EX', seconds, 'NX')
  local consumed = redis.call('incrby', KEYS[i], 1)
  local ttl = redis.call('pttl', KEYS[i])
  if ttl == -1 then
    redis.call('expire', KEYS[i], seconds)
    ttl = 1000 * seconds
  end
  if consumed > points then return {i, ttl} end
  if fewest < 0 or points - consumed < fewest then fewest = points - consumed end
end
return {0, fewest}`;

/** The client with the chain's script as a command (ioredis sends EVALSHA, and the script once if Redis lacks it). */
type ChainClient = Redis & { aasConsumeChain(keyCount: number, ...keysThenArgs: (string | number)[]): Promise<[number, number]> };

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
  client.defineCommand('aasConsumeChain', { lua: CHAIN_SCRIPT });
  let down = false;
  let scriptFailing = false;
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

  // A rule's counters: rate-limiter-flexible keys them `<keyPrefix>:<key>`; a chain writes the same keys itself.
  const ruleKeyPrefix = (rule: RateRule) => `${prefix}rl:${rule.name}`;
  // Its per-instance counters while Redis cannot be reached.
  const insuranceOf = (rule: RateRule) => memoryRateLimiter(rule, `${prefix}fallback:`);

  const limiter = (rule: RateRule) => {
    const insurance = insuranceOf(rule).raw;
    const shared = new RateLimiterRedis({
      storeClient: client,
      keyPrefix: ruleKeyPrefix(rule),
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

  const chain = (rules: readonly RateRule[]): RuleChain => {
    checkChainRules(rules);
    const prefixes = rules.map((rule) => `${ruleKeyPrefix(rule)}:`);
    const args = rules.flatMap((rule) => [rule.points, rule.durationSeconds]);
    const insurance = rules.map((rule) => insuranceOf(rule).limiter);
    return {
      async consume(keys) {
        checkChainKeys(rules, keys);
        await settled();
        let answer: [number, number];
        try {
          answer = await (client as ChainClient).aasConsumeChain(keys.length, ...keys.map((key, i) => prefixes[i] + key), ...args);
          scriptFailing = false;
        } catch (error) {
          // An outage is logged by the client's error event; anything else (a permission, a proxy
          // that refuses multi-key scripts) once until the script answers again.
          if (!down && !scriptFailing) options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'rate-limit script failed: counting in per-instance memory');
          scriptFailing = true;
          return consumeInOrder(insurance, keys);
        }
        const [refused, value] = answer;
        return refused === 0 ? decision(new RateLimiterRes(value, 0), true) : decision(new RateLimiterRes(0, value), false);
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
    chain,
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
