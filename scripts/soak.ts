// `npm run soak [-- --duration 600] [--rate N] [--warmup 60]`: 10 minutes of mixed traffic (MCP tool
// calls in both eras, refreshes, registrations, page views) against the real server in a child
// process on loopback, at half the W1 throughput measured by the last bench run
// (bench/results/latest.json; 40 requests/s when there is none; at most 100/s, see USER_CAP).
// Passes with zero errors and RSS growth after warm-up ≤ 10 %; prints p50/p99 and RSS per minute
// so p99 stability can be read.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runSoak } from '../test/reliability/soak/run-soak.ts';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '600' }, rate: { type: 'string' }, warmup: { type: 'string', default: '60' }, window: { type: 'string', default: '60' } } });

function halfOfW1(): number | undefined {
  const file = new URL('../bench/results/latest.json', import.meta.url);
  if (!existsSync(file)) return undefined;
  try {
    const latest = JSON.parse(readFileSync(file, 'utf8')) as { workloads?: { id: string; cases?: { contenders?: { name: string; summary?: { rps?: { median?: number } } }[] }[] }[] };
    const w1 = latest.workloads?.find((w) => w.id === 'W1');
    const rps = w1?.cases?.flatMap((c) => c.contenders ?? []).filter((c) => c.name === 'service-sqlite').map((c) => c.summary?.rps?.median ?? 0);
    const best = Math.max(0, ...(rps ?? []));
    return best > 0 ? Math.max(5, Math.round(best / 2)) : undefined;
  } catch {
    return undefined;
  }
}

// The MCP endpoint allows MCP_USER_REQUESTS_PER_MINUTE (120 by default) calls per user, and the demo
// data has ~40 users: above ~100 requests/s (60 % tool calls) the soak would measure its own 429s,
// so the default is capped there.
const USER_CAP = 100;
const rate = values.rate ? Number(values.rate) : Math.min(halfOfW1() ?? 40, USER_CAP);
const durationS = Number(values.duration);
const result = await runSoak({ durationS, rate, warmupS: Number(values.warmup), windowS: Number(values.window), log: console.log });
// p99 stability is read after the warm-up (whose extra traffic is there to load the server).
const p99s = result.windows.filter((w) => w.endS > Number(values.warmup) + Number(values.window) / 2).map((w) => w.p99);
const sorted = [...p99s].sort((a, b) => a - b);
const medianP99 = sorted[Math.floor(sorted.length / 2)] ?? 0;
console.log(`\n${result.requests} requests in ${durationS} s at ${rate}/s (${Object.entries(result.byKind).map(([k, v]) => `${k} ${v}`).join(', ')})`);
console.log(`errors: ${result.errors}${result.errorSamples.length ? `\n  ${result.errorSamples.join('\n  ')}` : ''}`);
console.log(`p99 per window after warm-up: ${p99s.map((p) => p.toFixed(0)).join(', ')} ms (median ${medianP99.toFixed(0)} ms, last/median ${(p99s.at(-1)! / medianP99).toFixed(2)})`);
console.log(`RSS after warm-up ${result.rssAfterWarmupMb.toFixed(0)} MB → end ${result.rssEndMb.toFixed(0)} MB (${(result.rssGrowth * 100).toFixed(1)} %)`);
console.log(`JS heap after GC ${result.heapAfterWarmupMb.toFixed(1)} MB → ${result.heapEndMb.toFixed(1)} MB (${(result.heapGrowth * 100).toFixed(1)} %)`);
const ok = result.errors === 0 && result.rssGrowth <= 0.1 && result.heapGrowth <= 0.1;
console.log(ok ? 'PASS' : 'FAIL');
process.exit(ok ? 0 : 1);
