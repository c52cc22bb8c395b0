// The pooled random bytes behind tokens, ids and nonces: every draw fresh, across pool refills.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomPooled } from '../../src/crypto/random.ts';

describe('randomPooled', () => {
  it('never repeats a draw, across many pool refills', () => {
    const seen = new Set<string>();
    // 20,000 × 13 bytes: ~63 refills of a 4 KB pool, with draws straddling its end.
    for (let i = 0; i < 20_000; i++) seen.add(randomPooled(13).toString('hex'));
    assert.equal(seen.size, 20_000);
  });

  it('gives bytes that look uniform (each value 0-255 about equally often)', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 1000; i++) for (const b of randomPooled(64)) counts[b]!++;
    // 64,000 bytes: 250 expected per value; a stuck or zeroed pool would be far outside this.
    assert.ok(Math.min(...counts) > 150 && Math.max(...counts) < 350, `counts from ${Math.min(...counts)} to ${Math.max(...counts)}`);
  });

  it('hands out copies: refilling and reusing the pool leaves an earlier draw unchanged', () => {
    const a = randomPooled(32);
    const copy = Buffer.from(a);
    randomPooled(4096); // a whole pool's worth: a refill overwrites every byte of it
    assert.deepEqual(a, copy);
  });

  it('refuses sizes it cannot serve', () => {
    for (const n of [0, -1, 1.5, 4097]) assert.throws(() => randomPooled(n), RangeError);
  });
});
