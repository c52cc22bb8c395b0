// The benchmark harness itself, on its anchors only and with a second or two of load: it starts
// contenders as processes, drives them with autocannon in a child, alternates rounds and writes
// results of the expected shape. No timing assertions: only that something was measured.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, UsageError } from '../../bench/lib/args.ts';
import { median, pairedRatio, percentile, spread } from '../../bench/lib/stats.ts';
import { runBench } from '../../bench/run.ts';
import type { Results } from '../../bench/lib/report.ts';
import { runCase, warm, warmupLoads, STEADY_NODE_FLAGS, WARMUP_SLICE_S, type CaseResult } from '../../bench/lib/compare.ts';
import { summarizeAllocations, type HeapProfile } from '../../bench/profile-summary.ts';
import { ratioShown } from '../../bench/workloads/types.ts';
import { verdict } from '../../bench/workloads/w2-transcript.ts';
import { BENCH_REDIS_URL, serviceEnv, useRedisIfReachable } from '../../bench/lib/service.ts';

describe('bench service environment', () => {
  it('should give the service on PostgreSQL the Redis that answers, and keep SQLite\'s limits in memory', async () => {
    await useRedisIfReachable();
    assert.equal(serviceEnv('postgres://postgres@127.0.0.1:5432/x', 'http://127.0.0.1:1', '/tmp').REDIS_URL, BENCH_REDIS_URL);
    assert.equal(serviceEnv('sqlite:/tmp/x.db', 'http://127.0.0.1:1', '/tmp').REDIS_URL, undefined);
    const note = await useRedisIfReachable('redis://127.0.0.1:1');
    assert.match(note, /unreachable .*: the service counts its rate limits in memory on both databases/);
    assert.equal(serviceEnv('postgres://postgres@127.0.0.1:5432/x', 'http://127.0.0.1:1', '/tmp').REDIS_URL, undefined);
  });
});

describe('bench harness on the W1 anchors', () => {
  const out = mkdtempSync(join(tmpdir(), 'aas-bench-'));
  let results: Results;
  let markdown: string;

  before(async () => {
    try {
      await runBench(['--only', 'W1,W2', '--anchors-only', '--rounds', '2', '--duration', '0.5', '--warmup', '0', '--quiet', '--out', out, '--data', join(out, 'data')]);
      results = JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8')) as Results;
      markdown = readFileSync(join(out, 'latest.md'), 'utf8');
    } finally {
      rmSync(join(out, 'data'), { recursive: true, force: true });
    }
  });

  it('should write latest.json with the machine, the settings and one result per selected workload', () => {
    assert.equal(results.version, 2);
    assert.equal(typeof results.machine.cpus, 'number');
    assert.match(results.machine.node, /^v\d+/);
    assert.equal(results.settings.rounds, 2);
    assert.match(results.redis, /^the service on PostgreSQL counts its rate limits in Redis at redis:\/\//, 'CI runs Redis (README, Tests)');
    assert.ok(markdown.includes(`Rate limits: ${results.redis}.`));
    assert.deepEqual(
      results.workloads.map((w) => w.id),
      ['W1', 'W2'],
    );
  });

  it('should measure every W1 anchor in both eras, two rounds each, with median, min and max', () => {
    const w1 = results.workloads[0];
    assert.ok(w1);
    assert.deepEqual(
      w1.cases.map((c) => c.id),
      ['W1-2025-11-25', 'W1-2026-07-28'],
    );
    for (const c of w1.cases) {
      assert.deepEqual(
        c.contenders.map((x) => x.name),
        ['bare', 'sdk-docs', 'sdk-hoisted'],
      );
      for (const contender of c.contenders) {
        assert.equal(contender.error, undefined, `${c.id} ${contender.label}: ${contender.error}`);
        assert.equal(contender.rounds.length, 2);
        const s = contender.summary;
        assert.ok(s, 'summary');
        for (const metric of ['rps', 'p50', 'p95', 'p99', 'peakRssMb'] as const) {
          assert.ok(s[metric].min <= s[metric].median && s[metric].median <= s[metric].max, `${metric} min ≤ median ≤ max`);
        }
        assert.ok(s.rps.median > 0, 'requests were answered');
        assert.ok(s.peakRssMb.median > 0, 'the server’s memory was read');
      }
      assert.ok(c.ratios.some((r) => r.label === '(c) / (b) req/s'));
    }
  });

  it('should report a workload whose service parts are missing as not run, saying what is missing', () => {
    const w2 = results.workloads[1];
    assert.ok(w2);
    assert.equal(w2.status, 'not run');
    assert.match(w2.notes[0] ?? '', /^not run: /);
    assert.ok(w2.goals.every((g) => g.met === null));
  });

  it('should write latest.md with the goals, a table per case and how to reproduce', () => {
    assert.match(markdown, /^# Benchmark results/m);
    assert.match(markdown, /\| workload \| goal \| met \| measured \|/);
    assert.match(markdown, /\*\*W1-2026-07-28\*\*/);
    assert.match(markdown, /\| \(a\) bare node:http \| \d+ \(\d+–\d+\) \|.* \| 0\.0 \/ 0 \|$/m, 'the warm-up asked for (--warmup 0) is in the table');
    assert.match(markdown, /after 0 s warm-up;/);
    assert.match(markdown, /## W2 .* — not run/);
    assert.match(markdown, /npm run bench -- --quick/);
  });
});

describe('bench --alloc-profile', () => {
  // The bare anchor as the subject: it keeps nothing between requests, so what its handler
  // allocated shows in the profile only if collected objects are counted.
  it('should write what a subject allocated while it served, collected objects included, and summarize it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aas-alloc-'));
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_meetings', arguments: { limit: 25 } } });
      const result = await runCase(
        {
          id: 'A1',
          title: 'allocations',
          connections: 4,
          contenders: [{ name: 'bare', label: 'bare', role: 'subject', process: { args: ['bench/anchors/bare-http.ts'], readyPath: '/healthz' }, load: async () => ({ method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json' }, body }) }],
        },
        { rounds: 1, durationS: 0.5, warmupS: 0, log: () => {}, allocProfileDir: dir },
      );
      assert.equal(result.contenders[0]?.error, undefined);
      const profile = JSON.parse(readFileSync(join(dir, 'A1-bare.heapprofile'), 'utf8')) as HeapProfile;
      const summary = summarizeAllocations(profile, 100);
      assert.match(summary, /^\d+\.\d MB allocated \(sampled\)/);
      assert.match(summary, /% +\d+\.\d MB {2}bench\/anchors\/bare-http\.ts$/m, summary);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should take --alloc-profile beside --profile', () => {
    const o = parseArgs(['--alloc-profile', '--profile']);
    assert.deepEqual([o.allocProfileDir, o.profileDir], ['bench/results/profiles', 'bench/results/profiles']);
    assert.equal(parseArgs([]).allocProfileDir, undefined);
  });
});

describe('bench contenders', () => {
  /** A contender running a one-line node:http server. */
  const inline = (name: string, role: 'subject' | 'anchor', code: string) => ({
    name,
    label: name,
    role,
    process: { args: ['-e', code], readyPath: '/' },
    load: async () => ({ method: 'GET' as const, path: '/', headers: {} }),
  });

  it('should warm a contender only on the answers that succeeded', async () => {
    // Ready on its first request, then every answer a 500: the warm-up has served nothing after its first load.
    const failing = "let n = 0; require('node:http').createServer((q, s) => { s.statusCode = n++ ? 500 : 200; s.end('x'); }).listen(Number(process.env.PORT), '127.0.0.1')";
    const result = await runCase(
      { id: 'F2', title: 'failing', connections: 2, contenders: [{ ...inline('f', 'anchor', failing), probe: async () => {} }] },
      { rounds: 1, durationS: 0.2, warmupS: 0.3, warmupRequests: 1_000_000, warmupMaxS: 5, log: () => {} },
    );
    const w = result.contenders[0]?.warmup;
    assert.ok(w && w.rps.length === 1 && w.rps[0]! > 0, `one load, answered: ${JSON.stringify(w)}`);
    assert.deepEqual([w.seconds, w.requests], [0.3, 0]);
    assert.match(result.contenders[0]?.error ?? '', /requests failed \(statuses \{"500"/);
  });

  it('should run every contender without V8\'s memory reducer, anchors and subjects alike', async () => {
    // A server that answers with the V8 flags it was started with.
    const code = "require('node:http').createServer((q, s) => s.end(JSON.stringify(process.execArgv))).listen(Number(process.env.PORT), '127.0.0.1')";
    const seen: string[][] = [];
    const contender = (name: string, role: 'subject' | 'anchor') => ({
      ...inline(name, role, code),
      probe: async (running: { url: string }) => {
        seen.push((await (await fetch(running.url)).json()) as string[]);
      },
    });
    const result = await runCase({ id: 'F1', title: 'flags', connections: 1, contenders: [contender('s', 'subject'), contender('a', 'anchor')] }, { rounds: 1, durationS: 0.2, warmupS: 0, log: () => {} });
    assert.deepEqual(result.contenders.map((c) => c.error), [undefined, undefined]);
    assert.equal(seen.length, 2);
    for (const flags of seen) for (const flag of STEADY_NODE_FLAGS) assert.ok(flags.includes(flag), `${flag} in ${flags.join(' ')}`);
    assert.deepEqual(STEADY_NODE_FLAGS, ['--no-memory-reducer']);
  });
});

describe('bench warm-up', () => {
  /** A contender answering `rate` requests a second (the last one from then on; an Error: the load fails), and the lengths asked for. */
  const contender = (rates: (number | Error)[]) => {
    const asked: number[] = [];
    const loadFor = async (seconds: number) => {
      const r = rates[Math.min(asked.length, rates.length - 1)] as number | Error;
      asked.push(seconds);
      if (r instanceof Error) throw r;
      return { rps: r, requests: Math.round(r * seconds) };
    };
    return { loadFor, asked };
  };
  const settings = (warmupS: number, warmupRequests: number, warmupMaxS: number) => ({ warmupS, warmupRequests, warmupMaxS });

  it('should serve the requests asked for in slices after the first load, and stop once it has', async () => {
    // 3 s × 1,000, then 2 s slices: 3,000 → 7,000 → 13,000 → 21,000 (≥ 20,000).
    const c = contender([1000, 2000, 3000, 4000, 9999]);
    const w = await warm(c.loadFor, settings(3, 20_000, 30));
    assert.deepEqual(c.asked, [3, WARMUP_SLICE_S, WARMUP_SLICE_S, WARMUP_SLICE_S]);
    assert.deepEqual(w, { seconds: 9, requests: 21_000, rps: [1000, 2000, 3000, 4000] });
  });

  it('should take no slice when the first load served enough', async () => {
    const c = contender([20_000, 1]);
    assert.deepEqual(await warm(c.loadFor, settings(3, 30_000, 30)), { seconds: 3, requests: 60_000, rps: [20_000] });
  });

  it('should stop at warmupMaxS, short of the requests, and not warm beyond it', async () => {
    const c = contender([100]);
    const w = await warm(c.loadFor, settings(3, 30_000, 10));
    assert.deepEqual(c.asked, [3, 2, 2, 2]);
    assert.deepEqual([w.seconds, w.requests], [9, 900]);
    // W4 issues a refresh token per connection for each load a warm-up may make, at most.
    assert.equal(warmupLoads(settings(3, 30_000, 10)), c.asked.length);
    assert.deepEqual([warmupLoads(settings(3, 30_000, 30)), warmupLoads(settings(3, 0, 30)), warmupLoads(settings(0, 30_000, 30))], [14, 1, 0]);
  });

  it('should not keep a contender that answered nothing, or failed, waiting', async () => {
    assert.deepEqual(await warm(contender([0, 500]).loadFor, settings(3, 30_000, 30)), { seconds: 3, requests: 0, rps: [0] });
    assert.deepEqual(await warm(contender([new Error('refused')]).loadFor, settings(3, 30_000, 30)), { seconds: 3, requests: 0, rps: [] });
    assert.deepEqual(await warm(contender([1000, new Error('cut off')]).loadFor, settings(3, 30_000, 30)), { seconds: 5, requests: 3000, rps: [1000] });
    const none = contender([1000]);
    assert.deepEqual(await warm(none.loadFor, settings(0, 30_000, 30)), { seconds: 0, requests: 0, rps: [] });
    assert.deepEqual(none.asked, []);
  });

  it('should keep a fixed warm-up when no requests are asked for', async () => {
    const c = contender([100, 200, 300]);
    assert.deepEqual(await warm(c.loadFor, settings(3, 0, 30)), { seconds: 3, requests: 300, rps: [100] });
  });
});

describe('bench arguments and statistics', () => {
  it('should take the quick defaults and the workload selection', () => {
    const o = parseArgs(['--quick', '--only', 'w1,W4']);
    assert.deepEqual([o.quick, o.only, o.rounds, o.durationS], [true, ['W1', 'W4'], 2, 1]);
    const limits = parseArgs(['--max-meetings', '100000', '--max-documents=10000']);
    assert.deepEqual([limits.maxMeetings, limits.maxDocuments, o.maxDocuments], [100_000, 10_000, Infinity]);
  });

  it('should warm for 30,000 requests in 30 s at most by default, and for a fixed time in a quick run or with --warmup 0', () => {
    assert.deepEqual(
      [[], ['--quick'], ['--warmup', '0'], ['--warmup', '40'], ['--warmup', '1', '--warmup-max', '8', '--warmup-requests', '5000']].map((a) => {
        const o = parseArgs(a);
        return [o.warmupS, o.warmupRequests, o.warmupMaxS];
      }),
      [[3, 30_000, 30], [0.5, 0, 30], [0, 0, 30], [40, 30_000, 40], [1, 5000, 8]],
    );
    assert.throws(() => parseArgs(['--warmup', '5', '--warmup-max', '3']), /--warmup-max 3 is shorter than --warmup 5/);
  });

  it('should refuse an unknown option or workload with a usage error', () => {
    assert.throws(() => parseArgs(['--fast']), UsageError);
    assert.throws(() => parseArgs(['--only', 'W9']), /unknown workload W9/);
    assert.throws(() => parseArgs(['--rounds', '0']), /positive number/);
    assert.throws(() => parseArgs(['--max-documents', 'lots']), /--max-documents: expected a positive number/);
  });

  it('should call a goal met only when every case was measured and passes', () => {
    const c = (title: string) => ({ title }) as unknown as CaseResult;
    const under = (v: number) => v <= 50;
    const show = (v: number) => `${v} ms`;
    assert.deepEqual(verdict([{ c: c('A'), v: 40 }, { c: c('B'), v: 30 }], under, show), { met: true, detail: 'A: 40 ms; B: 30 ms' });
    assert.deepEqual(verdict([{ c: c('A'), v: 40 }, { c: c('B'), v: undefined }], under, show), { met: null, detail: 'A: 40 ms; B: n/a' });
    assert.equal(verdict([{ c: c('A'), v: 60 }, { c: c('B'), v: undefined }], under, show).met, false);
    assert.equal(verdict([], under, show).met, null);
  });

  it('should show a ratio beside its goal with the decimals that tell its side of the threshold', () => {
    assert.equal(ratioShown(1.4969, 1.5), '1.497');
    assert.equal(ratioShown(1.5, 1.5), '1.50');
    assert.equal(ratioShown(1.52, 1.5), '1.52');
    assert.equal(ratioShown(2.004, 2), '2.004');
    assert.equal(ratioShown(1.49996, 1.5), '1.49996');
    assert.equal(ratioShown(2.0004, 2), '2.0004');
  });

  it('should give the median, spread, nearest-rank percentile and per-round ratios', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 2, 3]), 2.5);
    assert.deepEqual(spread([5, 1, 3]), { median: 3, min: 1, max: 5 });
    assert.equal(percentile(Float64Array.from({ length: 100 }, (_, i) => i + 1), 95), 95);
    assert.deepEqual(pairedRatio([10, 20, 30], [5, 5, 10]), { median: 3, min: 2, max: 4 });
  });
});
