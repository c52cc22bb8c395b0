// Side by side: every contender of a case runs as its own process for the whole case; after one
// probe and an unmeasured warm-up each, the measured rounds alternate the contenders (A B C, then
// B C A, …) so drift on a shared machine falls on all of them alike. Each round resets the
// server's peak-RSS mark and reads it back afterwards.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUEST_TIMEOUT_S, runLoad, type LoadResult, type LoadSpec } from './load.ts';
import { memoryOf, resetPeakRss, sampleRss, startProcess, type ProcessSpec, type Running } from './proc.ts';
import { pairedRatio, spread, type Spread } from './stats.ts';

export type Load = Omit<LoadSpec, 'url' | 'connections' | 'durationS'> & { path: string };

export type Contender = {
  name: string;
  label: string;
  role: 'subject' | 'anchor';
  process: ProcessSpec;
  /** The load for this running contender (may issue tokens, look up ids, …). */
  load(running: Running): Promise<Load>;
  /** One request before measuring; throws when the answer is not the expected one. Default: 2xx, no JSON-RPC or tool error. */
  probe?(running: Running, load: Load): Promise<void>;
  /** Stops whatever `load` set up besides the process. */
  cleanup?(): Promise<void>;
};

export type RatioSpec = { label: string; a: string; b: string; metric: Metric };
export type Metric = 'rps' | 'p50' | 'p95' | 'p99' | 'peakRssMb';

export type CaseSpec = { id: string; title: string; connections: number; contenders: Contender[]; ratios?: RatioSpec[] };

export type Round = Pick<LoadResult, 'requests' | 'rps' | 'p50' | 'p95' | 'p99' | 'non2xx' | 'errors'> & { peakRssMb: number };

export type ContenderResult = {
  name: string;
  label: string;
  role: 'subject' | 'anchor';
  startMs?: number;
  rounds: Round[];
  summary?: Record<Metric, Spread>;
  /** Set when the contender could not be measured. */
  error?: string;
};

export type CaseResult = {
  id: string;
  title: string;
  connections: number;
  contenders: ContenderResult[];
  ratios: { label: string; metric: Metric; value: Spread }[];
  /** Whether the kernel let us reset the peak-RSS mark per round (else: peak since start). */
  peakResetPerRound: boolean;
};

export type CompareOptions = { rounds: number; durationS: number; warmupS: number; log: (line: string) => void; profileDir?: string | undefined; allocProfileDir?: string | undefined };

const ALLOC_PROBE = fileURLToPath(new URL('./alloc-probe.mjs', import.meta.url));

/** A subject's process under the profilers asked for: `--cpu-prof`, and the allocation probe (alloc-probe.mjs). */
function profiledProcess(base: ProcessSpec, name: string, options: CompareOptions): ProcessSpec {
  let spec = base;
  if (options.profileDir) spec = { ...spec, args: ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`, `--cpu-prof-name=${name}.cpuprofile`, ...spec.args] };
  if (options.allocProfileDir) {
    mkdirSync(options.allocProfileDir, { recursive: true });
    const out = resolve(options.allocProfileDir, `${name}.heapprofile`);
    const env = spec.env;
    spec = { ...spec, args: ['--import', ALLOC_PROBE, ...spec.args], env: (port: number) => ({ ...(typeof env === 'function' ? env(port) : env), BENCH_ALLOC_PROFILE: out }) };
  }
  return spec;
}

const METRICS: Metric[] = ['rps', 'p50', 'p95', 'p99', 'peakRssMb'];

/** How long the probe before a contender's rounds waits for its one request. */
const PROBE_TIMEOUT_MS = 15_000;

async function defaultProbe(running: Running, load: Load): Promise<void> {
  if (load.refreshChain) return; // a probe would spend a single-use token; the first round shows failures
  let res: Response;
  let text: string;
  try {
    res = await fetch(running.url + load.path, { method: load.method, headers: load.headers, body: load.body, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    text = await res.text();
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw new Error(`one request took longer than the probe's ${PROBE_TIMEOUT_MS / 1000} s`);
    throw error;
  }
  if (res.status < 200 || res.status > 299) throw new Error(`probe answered ${res.status}: ${text.slice(0, 300)}`);
  if (/"error"\s*:\s*\{\s*"code"\s*:\s*-32/.test(text)) throw new Error(`probe answered a JSON-RPC error: ${text.slice(0, 300)}`);
  if (/"isError"\s*:\s*true/.test(text)) throw new Error(`probe answered a tool error: ${text.slice(0, 300)}`);
}

type Live = { contender: Contender; running: Running; load: Load; result: ContenderResult };

function loadSpec(live: Live, durationS: number, connections: number): LoadSpec {
  const { path, ...rest } = live.load;
  return { ...rest, url: live.running.url + path, connections, durationS };
}

async function measure(live: Live, durationS: number, connections: number): Promise<{ load: LoadResult; peakRssMb: number; reset: boolean }> {
  const reset = resetPeakRss(live.running.pid);
  const { value, maxRssMb } = await sampleRss(live.running.pid, runLoad(loadSpec(live, durationS, connections)));
  if (value.tokensOut && live.load.refreshChain) live.load = { ...live.load, refreshChain: { ...live.load.refreshChain, tokens: value.tokensOut } };
  const { peakMb } = memoryOf(live.running.pid);
  return { load: value, peakRssMb: Math.max(maxRssMb, Number.isFinite(peakMb) ? peakMb : 0), reset };
}

export async function runCase(spec: CaseSpec, options: CompareOptions): Promise<CaseResult> {
  const results: ContenderResult[] = spec.contenders.map((c) => ({ name: c.name, label: c.label, role: c.role, rounds: [] }));
  const lives: Live[] = [];
  let peakResetPerRound = true;
  try {
    for (const [i, contender] of spec.contenders.entries()) {
      const result = results[i] as ContenderResult;
      try {
        const processSpec = contender.role === 'subject' ? profiledProcess(contender.process, `${spec.id}-${contender.name}`, options) : contender.process;
        const running = await startProcess(processSpec);
        lives.push({ contender, running, load: { method: 'GET', headers: {}, path: '/' }, result });
        result.startMs = running.startMs;
        const load = await contender.load(running);
        (lives.at(-1) as Live).load = load;
        await (contender.probe ?? defaultProbe)(running, load);
      } catch (error) {
        result.error = error instanceof Error ? error.message : String(error);
        options.log(`  ${spec.id} ${contender.label}: ${result.error}`);
        const live = lives.find((l) => l.contender === contender);
        if (live) {
          lives.splice(lives.indexOf(live), 1);
          await live.running.stop();
        }
        await contender.cleanup?.().catch(() => undefined);
      }
    }
    if (options.warmupS > 0) {
      for (const live of lives) await measure(live, options.warmupS, spec.connections).catch(() => undefined);
    }
    for (let round = 0; round < options.rounds; round++) {
      for (let k = 0; k < lives.length; k++) {
        const live = lives[(round + k) % lives.length] as Live;
        if (live.result.error) continue;
        try {
          const m = await measure(live, options.durationS, spec.connections);
          if (!m.reset) peakResetPerRound = false;
          const failed = m.load.non2xx + m.load.errors;
          // A contender slower than a round (W3's raw ranking query at 100,000 documents) has nothing to report.
          if (m.load.requests === 0) throw new Error(`no request completed within a ${options.durationS} s round${m.load.errors ? ` (${m.load.errors} requests failed to connect or were cut off at the load driver's ${REQUEST_TIMEOUT_S} s timeout)` : ''}`);
          if (failed > m.load.requests * 0.01) {
            throw new Error(`${failed} of ${m.load.requests} requests failed (statuses ${JSON.stringify(m.load.statuses)})${m.load.firstFailure ? `; first: ${m.load.firstFailure}` : ''}`);
          }
          const { requests, rps, p50, p95, p99, non2xx, errors } = m.load;
          live.result.rounds.push({ requests, rps, p50, p95, p99, non2xx, errors, peakRssMb: m.peakRssMb });
          options.log(`  ${spec.id} round ${round + 1}/${options.rounds} ${live.contender.label}: ${rps.toFixed(0)} req/s, p99 ${p99.toFixed(2)} ms, peak ${m.peakRssMb.toFixed(0)} MB`);
        } catch (error) {
          live.result.error = error instanceof Error ? error.message : String(error);
          options.log(`  ${spec.id} ${live.contender.label}: ${live.result.error}`);
        }
      }
    }
  } finally {
    for (const live of lives) {
      await live.running.stop();
      await live.contender.cleanup?.().catch(() => undefined);
    }
  }
  for (const r of results) {
    if (r.rounds.length === 0) continue;
    r.summary = Object.fromEntries(METRICS.map((m) => [m, spread(r.rounds.map((x) => x[m]))])) as Record<Metric, Spread>;
  }
  const ratios = (spec.ratios ?? []).flatMap((ratio) => {
    const a = results.find((r) => r.name === ratio.a);
    const b = results.find((r) => r.name === ratio.b);
    if (!a?.rounds.length || !b?.rounds.length) return [];
    return [{ label: ratio.label, metric: ratio.metric, value: pairedRatio(a.rounds.map((x) => x[ratio.metric]), b.rounds.map((x) => x[ratio.metric])) }];
  });
  return { id: spec.id, title: spec.title, connections: spec.connections, contenders: results, ratios, peakResetPerRound };
}
