// Side by side: every contender of a case runs as its own process for the whole case; after one
// probe and an unmeasured warm-up each, the measured rounds alternate the contenders (A B C, then
// B C A, …) so drift on a shared machine falls on all of them alike. Each round resets the
// server's peak-RSS mark and reads it back afterwards.
//
// The warm-up is counted in requests, not only in seconds (warm), and no contender's heap shrinks
// while it waits for its turn (STEADY_NODE_FLAGS): with a fixed 3 s warm-up and idle-time heap
// shrinking the SDK anchors were measured cold and shrunk, the more so the slower the machine,
// and the service's ratios to them came out higher than they are (the measurements:
// bench/FINDINGS.md, "The harness: warm-up and idle turns").
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
  warmup?: Warmup;
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

export type CompareOptions = {
  rounds: number;
  durationS: number;
  /** Seconds of unmeasured load each contender gets at least before the rounds. */
  warmupS: number;
  /** How many requests the warm-up serves at least, unless warmupMaxS comes first (warm); default 0: a fixed warm-up. */
  warmupRequests?: number | undefined;
  /** The most seconds a warm-up may take to serve warmupRequests; default warmupS. */
  warmupMaxS?: number | undefined;
  log: (line: string) => void;
  profileDir?: string | undefined;
  allocProfileDir?: string | undefined;
};

/** How a contender's warm-up went: its length, what it served, and the throughput of each of its loads (the first one warmupS long, then slices). */
export type Warmup = { seconds: number; requests: number; rps: number[] };

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

/**
 * Every contender runs without V8's memory reducer, which shrinks an idle process's heap. Taking
 * turns, each contender idles while the others are measured (W1: five rounds of 5 s), and a
 * server under steady load never does; the SDK anchors lost about half their throughput to it.
 * A flag for every contender alike, so none is measured as it would never run under load.
 */
export const STEADY_NODE_FLAGS = ['--no-memory-reducer'];
const steady = (spec: ProcessSpec): ProcessSpec => ({ ...spec, args: [...STEADY_NODE_FLAGS, ...spec.args] });

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

/** After its first load the warm-up goes on in slices of this length. */
export const WARMUP_SLICE_S = 2;

type WarmupSettings = { warmupS: number; warmupMaxS: number; warmupRequests: number };

/** The warm-up the options ask for: no cap below its first load, and a fixed time when no count is given. */
const warmupOf = (options: Pick<CompareOptions, 'warmupS' | 'warmupMaxS' | 'warmupRequests'>): WarmupSettings => ({
  warmupS: options.warmupS,
  warmupMaxS: Math.max(options.warmupS, options.warmupMaxS ?? options.warmupS),
  warmupRequests: options.warmupRequests ?? 0,
});

/** The most load runs a contender's warm-up makes under these options (each run may cut off a request per connection). */
export function warmupLoads(options: Pick<CompareOptions, 'warmupS' | 'warmupMaxS' | 'warmupRequests'>): number {
  const { warmupS, warmupMaxS, warmupRequests } = warmupOf(options);
  if (warmupS <= 0) return 0;
  return warmupRequests > 0 ? 1 + Math.floor((warmupMaxS - warmupS) / WARMUP_SLICE_S + 1e-9) : 1;
}

/**
 * Unmeasured load: warmupS first, then slices until the contender has served warmupRequests in
 * all, or warmupMaxS have passed. A count of requests, not a time, because warming is counted in
 * requests: from a fresh process under W1's load each contender's throughput stopped rising after
 * ~20,000–30,000 requests, whatever the machine's speed made of that in seconds. `requests` are
 * the answers that succeeded. A contender that answered nothing (a query slower than the load, a
 * failure) is not kept waiting: its rounds will say so.
 */
export async function warm(loadFor: (seconds: number) => Promise<{ requests: number; rps: number }>, { warmupS, warmupMaxS, warmupRequests }: WarmupSettings): Promise<Warmup> {
  const rps: number[] = [];
  let seconds = 0;
  let requests = 0;
  const step = async (s: number): Promise<boolean> => {
    const r = await loadFor(s).catch(() => undefined);
    seconds += s;
    if (r === undefined) return false;
    rps.push(r.rps);
    requests += r.requests;
    return r.requests > 0;
  };
  if (warmupS <= 0 || !(await step(warmupS))) return { seconds, requests, rps };
  while (requests < warmupRequests && seconds + WARMUP_SLICE_S <= warmupMaxS + 1e-9) {
    if (!(await step(WARMUP_SLICE_S))) break;
  }
  return { seconds, requests, rps };
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
        const running = await startProcess(steady(processSpec));
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
    for (const live of lives) {
      const w = await warm(async (s) => {
        const { load } = await measure(live, s, spec.connections);
        return { rps: load.rps, requests: load.requests - load.non2xx };
      }, warmupOf(options));
      live.result.warmup = w;
      if (w.rps.length > 1) options.log(`  ${spec.id} ${live.contender.label}: warmed ${w.seconds} s, ${w.requests} requests (${w.rps.map((r) => r.toFixed(0)).join(' ')} req/s)`);
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
