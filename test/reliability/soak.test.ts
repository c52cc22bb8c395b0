// The soak's short CI form (`npm run soak` runs 10 minutes): 30 seconds of mixed traffic (tool
// calls in both eras, refreshes, registrations, page views) against the real server in a child
// process, run with the Node options of `npm start`: zero errors, and the server's JS heap after a
// full GC and its RSS each grow by at most 10 % after warm-up. (Without those options V8 grew its
// young generation lazily and RSS moved 2–13 % between runs; with them it moved 0.0 % in three.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runSoak } from './soak/run-soak.ts';

describe('soak (30 s)', () => {
  it('serves 30 s of mixed traffic with zero errors, and heap and RSS growth ≤ 10 % after warm-up', async () => {
    // The first 10 s carry 150 extra page views a second, so caches and JIT settle first.
    const result = await runSoak({ durationS: Number(process.env.SOAK_SECONDS ?? 30), rate: 25, warmupS: 10, warmupExtraRate: 150, windowS: 10, log: process.env.FUZZ_VERBOSE ? console.log : undefined });
    if (process.env.FUZZ_VERBOSE) console.log(`heap ${result.heapAfterWarmupMb.toFixed(1)} → ${result.heapEndMb.toFixed(1)} MB, RSS ${result.rssAfterWarmupMb.toFixed(0)} → ${result.rssEndMb.toFixed(0)} MB, ${result.requests} requests`);
    assert.equal(result.errors, 0, `errors: ${result.errorSamples.join('\n')}`);
    assert.ok(result.requests >= 500, `only ${result.requests} requests`);
    assert.ok(result.heapAfterWarmupMb > 0, 'the heap probe answered');
    assert.ok(result.heapGrowth <= 0.1, `heap after GC grew ${(result.heapGrowth * 100).toFixed(1)} % (${result.heapAfterWarmupMb.toFixed(1)} → ${result.heapEndMb.toFixed(1)} MB)`);
    assert.ok(result.rssGrowth <= 0.1, `RSS grew ${(result.rssGrowth * 100).toFixed(1)} % (${result.rssAfterWarmupMb.toFixed(0)} → ${result.rssEndMb.toFixed(0)} MB)`);
  });
});
