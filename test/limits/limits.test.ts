// The limits interface, proven on its in-memory implementation and on a real Redis.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { memoryLimits } from '../../src/limits/memory.ts';
import { redisLimits } from '../../src/limits/redis.ts';
import type { Limits } from '../../src/limits/index.ts';

const REDIS_URL = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';
const quiet = pino({ level: 'silent' });
const prefix = () => `aas-test:${randomBytes(6).toString('hex')}:`;
const rule = (points: number) => ({ name: `r${randomBytes(3).toString('hex')}`, points, durationSeconds: 60 });

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

  it('should fall back to per-instance memory when redis is unreachable', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const limits = redisLimits({ url: 'redis://127.0.0.1:1', keyPrefix: prefix(), logger });
    opened.push(limits);
    const limiter = limits.limiter(rule(1));
    assert.equal((await limiter.consume('k')).allowed, true);
    assert.equal((await limiter.consume('k')).allowed, false);
    assert.equal(await limits.health(), 'down');
    assert.equal(await limits.cache.get('anything'), undefined);
    assert.ok(warnings.some((w) => w.includes('fall back to per-instance memory')), 'the outage is logged');
  });
});
