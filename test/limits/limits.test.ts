// The limits interface, proven on its in-memory implementation and on a real Redis.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { Redis } from 'ioredis';
import { memoryLimits } from '../../src/limits/memory.ts';
import { redisLimits } from '../../src/limits/redis.ts';
import type { Limits } from '../../src/limits/index.ts';

const REDIS_URL = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';
const quiet = pino({ level: 'silent' });
const prefix = () => `aas-test:${randomBytes(6).toString('hex')}:`;
const rule = (points: number, durationSeconds = 60) => ({ name: `r${randomBytes(3).toString('hex')}`, points, durationSeconds });

const opened: Limits[] = [];
function open(kind: 'memory' | 'redis', keyPrefix = prefix()): Limits {
  const limits = kind === 'memory' ? memoryLimits() : redisLimits({ url: REDIS_URL, keyPrefix, logger: quiet });
  opened.push(limits);
  return limits;
}
after(async () => {
  await Promise.all(opened.map((l) => l.close()));
});

for (const kind of ['memory', 'redis'] as const) {
  describe(`limits on ${kind}`, () => {
    it('should allow the configured points, then refuse with a Retry-After', async () => {
      const limiter = open(kind).limiter(rule(3));
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await limiter.consume('client-1'));
      assert.deepEqual(decisions.map((d) => d.allowed), [true, true, true, false]);
      assert.deepEqual(decisions.slice(0, 3).map((d) => d.remaining), [2, 1, 0]);
      assert.ok(decisions[3]!.retryAfterSeconds >= 1 && decisions[3]!.retryAfterSeconds <= 60);
    });

    it('should count keys and rules separately', async () => {
      const limits = open(kind);
      const a = limits.limiter(rule(1));
      const b = limits.limiter(rule(1));
      assert.equal((await a.consume('k')).allowed, true);
      assert.equal((await a.consume('other')).allowed, true);
      assert.equal((await b.consume('k')).allowed, true);
      assert.equal((await a.consume('k')).allowed, false);
    });

    it('should consume a chain in order and stop at the first refusal, whose later rules keep their points', async () => {
      const chain = open(kind).chain([rule(1, 60), rule(2, 10)]);
      const first = await chain.consume(['user-1', 'client']);
      assert.deepEqual(first, { allowed: true, remaining: 0, retryAfterSeconds: 0 }, 'the fewest points left of either rule');
      const refused = await chain.consume(['user-1', 'client']);
      assert.equal(refused.allowed, false);
      assert.ok(refused.retryAfterSeconds >= 58 && refused.retryAfterSeconds <= 60, `the first rule's window: ${refused.retryAfterSeconds}`);
      // Had the refusal counted the client's point too, its second point would be gone.
      assert.equal((await chain.consume(['user-2', 'client'])).allowed, true);
      const second = await chain.consume(['user-3', 'client']);
      assert.equal(second.allowed, false, 'the second rule refuses past its points');
      assert.ok(second.retryAfterSeconds >= 8 && second.retryAfterSeconds <= 10, `the second rule's window: ${second.retryAfterSeconds}`);
    });

    it('should count consumes made at once exactly, each with its own answer', async () => {
      // Issued in one turn, as requests started together issue them: each must get its own answer, in order.
      const chain = open(kind).chain([rule(4), rule(100)]);
      const keys = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'even' : 'odd'));
      const decisions = await Promise.all(keys.map((key) => chain.consume([key, 'client'])));
      for (const key of ['even', 'odd']) {
        const mine = decisions.filter((_, i) => keys[i] === key);
        assert.deepEqual(mine.map((d) => d.allowed), [true, true, true, true, false, false], key);
        assert.deepEqual(mine.slice(0, 4).map((d) => d.remaining), [3, 2, 1, 0], key);
      }
    });

    it('should report the fewest points left over a chain\'s rules', async () => {
      const chain = open(kind).chain([rule(3), rule(4)]);
      assert.equal((await chain.consume(['a', 'b'])).remaining, 2, 'the first rule has fewer (2 against 3)');
      assert.equal((await chain.consume(['c', 'b'])).remaining, 2, 'as many (2 and 2)');
      assert.equal((await chain.consume(['d', 'b'])).remaining, 1, 'the second rule has fewer (1 against 2)');
    });

    it('should refuse a chain without rules, and keys that do not match its rules', async () => {
      const limits = open(kind);
      assert.throws(() => limits.chain([]), /at least one rule/);
      assert.throws(() => limits.chain([rule(1, 1.5)]), /whole seconds, at least 1/);
      assert.throws(() => limits.chain([rule(1, 0)]), /whole seconds, at least 1/);
      assert.throws(() => limits.chain([rule(0)]), /points must be a whole number/);
      await assert.rejects(limits.chain([rule(1), rule(1)]).consume(['only-one']), /2 rules was given 1 keys/);
    });

    it('should store, read, expire and delete cache entries', async () => {
      const { cache } = open(kind);
      assert.equal(await cache.get('missing'), undefined);
      await cache.set('a', 'one', 60);
      await cache.set('short', 'gone soon', 1);
      assert.equal(await cache.get('a'), 'one');
      await cache.delete('a');
      assert.equal(await cache.get('a'), undefined);
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal(await cache.get('short'), undefined);
    });

    it('should report itself healthy', async () => {
      assert.equal(await open(kind).health(), 'ok');
    });
  });
}

describe('limits shared through redis', () => {
  it('should share one counter between two instances', async () => {
    const keyPrefix = prefix();
    const r = rule(2);
    const first = open('redis', keyPrefix).limiter(r);
    const second = open('redis', keyPrefix).limiter(r);
    assert.equal((await first.consume('ip')).allowed, true);
    assert.equal((await second.consume('ip')).allowed, true);
    assert.equal((await first.consume('ip')).allowed, false);
    assert.equal((await second.consume('ip')).allowed, false);
  });

  it('should count a chain\'s rules on the keys of one limiter per rule (shared with instances of either kind)', async () => {
    const keyPrefix = prefix();
    const user = rule(2);
    const client = rule(3);
    const chain = open('redis', keyPrefix).chain([user, client]);
    const single = open('redis', keyPrefix);
    assert.equal((await single.limiter(user).consume('u')).allowed, true);
    assert.equal((await single.limiter(client).consume('c')).allowed, true);
    assert.equal((await chain.consume(['u', 'c'])).allowed, true);
    assert.equal((await chain.consume(['u', 'c'])).allowed, false, 'the user rule saw the single limiter\'s point');
    assert.equal((await single.limiter(client).consume('c')).allowed, true, 'the client rule holds the single limiter\'s and the chain\'s allowed points, not the refused one');
    assert.equal((await single.limiter(client).consume('c')).allowed, false);
  });

  it('should give a chain\'s counter that has no expiry its window, as a single limiter does', async () => {
    const keyPrefix = prefix();
    const r = rule(3);
    const raw = new Redis(REDIS_URL);
    try {
      await raw.set(`${keyPrefix}rl:${r.name}:k`, '1');
      const decided = await open('redis', keyPrefix).chain([r]).consume(['k']);
      assert.deepEqual(decided, { allowed: true, remaining: 1, retryAfterSeconds: 0 });
      const ttl = await raw.pttl(`${keyPrefix}rl:${r.name}:k`);
      assert.ok(ttl > 55_000 && ttl <= 60_000, `expiry ${ttl} ms`);
    } finally {
      raw.disconnect();
    }
  });

  it('should count in memory and warn once when the chain\'s script fails on a reachable redis', async () => {
    const keyPrefix = prefix();
    const r = rule(1);
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const limits = redisLimits({ url: REDIS_URL, keyPrefix, logger });
    opened.push(limits);
    const raw = new Redis(REDIS_URL);
    try {
      // A key of another type: Redis answers the script with an error (WRONGTYPE).
      await raw.hset(`${keyPrefix}rl:${r.name}:k`, 'x', '1');
      const chain = limits.chain([r]);
      assert.equal((await chain.consume(['k'])).allowed, true);
      assert.equal((await chain.consume(['k'])).allowed, false, 'counted in memory');
      assert.equal(warnings.filter((w) => w.includes('rate-limit script failed')).length, 1, warnings.join('\n'));
    } finally {
      await raw.del(`${keyPrefix}rl:${r.name}:k`);
      raw.disconnect();
    }
  });

  it('should keep a failing script to its own consume when others were sent with it', async () => {
    const keyPrefix = prefix();
    const r = rule(1);
    const raw = new Redis(REDIS_URL);
    try {
      await raw.hset(`${keyPrefix}rl:${r.name}:broken`, 'x', '1');
      const chain = open('redis', keyPrefix).chain([r]);
      // The broken key's script fails (WRONGTYPE) and is counted in memory; the others, sent in the same turn, in Redis.
      const decisions = await Promise.all(['a', 'broken', 'b'].map((key) => chain.consume([key])));
      assert.deepEqual(decisions.map((d) => d.allowed), [true, true, true]);
      assert.equal(await raw.get(`${keyPrefix}rl:${r.name}:a`), '1');
      assert.equal(await raw.get(`${keyPrefix}rl:${r.name}:b`), '1');
      assert.equal(await raw.type(`${keyPrefix}rl:${r.name}:broken`), 'hash', 'left as it was');
    } finally {
      raw.disconnect();
    }
  });

  it('should fall back to per-instance memory when redis is unreachable', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const limits = redisLimits({ url: 'redis://127.0.0.1:1', keyPrefix: prefix(), logger });
    opened.push(limits);
    const limiter = limits.limiter(rule(1));
    assert.equal((await limiter.consume('k')).allowed, true);
    assert.equal((await limiter.consume('k')).allowed, false);
    const chain = limits.chain([rule(1), rule(2)]);
    assert.equal((await chain.consume(['u1', 'c'])).allowed, true);
    assert.equal((await chain.consume(['u1', 'c'])).allowed, false);
    assert.equal((await chain.consume(['u2', 'c'])).allowed, true, 'the refusal left the second rule\'s point');
    assert.equal((await chain.consume(['u3', 'c'])).allowed, false);
    assert.equal(await limits.health(), 'down');
    assert.equal(await limits.cache.get('anything'), undefined);
    assert.ok(warnings.some((w) => w.includes('fall back to per-instance memory')), 'the outage is logged');
  });
});
