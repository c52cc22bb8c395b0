// Writes the results: latest.json (everything, machine-readable) and latest.md (the tables the
// README's Performance section shows). Every figure is "median (min–max)" over the rounds.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchOptions } from './args.ts';
import { WARMUP_SLICE_S, type CaseResult } from './compare.ts';
import { ROOT } from './proc.ts';
import type { Spread } from './stats.ts';
import type { StartResult, WorkloadResult } from '../workloads/types.ts';

/** 2: `redis` added, and the service on PostgreSQL counts its rate limits in Redis when it answers. */
export const RESULTS_VERSION = 2;

export type Machine = { cpus: number; cpuModel: string; memoryGb: number; os: string; node: string; loadAverage: number[] };

export function machine(): Machine {
  const c = cpus();
  return {
    cpus: c.length,
    cpuModel: c[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()}`,
    node: process.version,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export type Results = {
  version: number;
  startedAt: string;
  finishedAt: string;
  command: string;
  machine: Machine;
  /** Where the service keeps its rate-limit counters on each database (bench/lib/service.ts useRedisIfReachable). */
  redis: string;
  settings: Pick<BenchOptions, 'quick' | 'only' | 'rounds' | 'durationS' | 'warmupS' | 'warmupRequests' | 'warmupMaxS' | 'anchorsOnly'>;
  workloads: WorkloadResult[];
};

/** The warm-up as the settings asked for it: a fixed time, or a count of requests (lib/compare.ts warm). */
function warmupText(s: Results['settings']): string {
  if (!(s.warmupRequests > 0)) return `${s.warmupS} s warm-up`;
  return `a warm-up of ${s.warmupS} s and then ${WARMUP_SLICE_S} s more at a time until ${s.warmupRequests.toLocaleString('en-US')} requests were served, ${s.warmupMaxS} s at most (each contender's in its table)`;
}

const n = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const cell = (s: Spread | undefined, digits: number) => (s ? `${n(s.median, digits)} (${n(s.min, digits)}–${n(s.max, digits)})` : '—');

function caseTable(c: CaseResult): string[] {
  const lines = [
    `**${c.id}** — ${c.title}, ${c.connections} connections`,
    '',
    '| contender | req/s | p50 ms | p95 ms | p99 ms | peak RSS MB | warm-up s / requests |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of c.contenders) {
    const s = r.summary;
    if (!s) {
      lines.push(`| ${r.label} | not measured: ${(r.error ?? 'no rounds').replaceAll('|', '/').replaceAll('\n', ' ').slice(0, 200)} | | | | | |`);
      continue;
    }
    lines.push(`| ${r.label} | ${cell(s.rps, 0)} | ${cell(s.p50, 2)} | ${cell(s.p95, 2)} | ${cell(s.p99, 2)} | ${cell(s.peakRssMb, 0)} | ${r.warmup ? `${n(r.warmup.seconds, 1)} / ${r.warmup.requests}` : '—'} |`);
  }
  if (c.ratios.length) {
    lines.push('', 'Ratios (per round, same run): ' + c.ratios.map((r) => `${r.label} **${cell(r.value, 2)}**`).join(' · '));
  }
  if (!c.peakResetPerRound) lines.push('', '_Peak RSS is since process start (the kernel refused a per-round reset)._');
  lines.push('');
  return lines;
}

function startTable(s: StartResult): string[] {
  const lines = [`**${s.id}** — ${s.title}`, '', '| contender | start → ready ms | peak RSS MB |', '|---|---:|---:|'];
  for (const c of s.contenders) lines.push(`| ${c.label} | ${c.startMs ? cell(c.startMs, 0) : `not measured: ${c.error ?? ''}`} | ${cell(c.peakRssMb, 0)} |`);
  lines.push('');
  return lines;
}

export function markdown(results: Results): string {
  const m = results.machine;
  const s = results.settings;
  const lines = [
    '# Benchmark results',
    '',
    `Run ${results.startedAt} → ${results.finishedAt} with \`${results.command}\`.`,
    '',
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, ${m.os}, Node ${m.node}, load average at start ${m.loadAverage.join(' ')}.`,
    `Rate limits: ${results.redis}.`,
    `Settings: ${s.quick ? 'quick sanity run, ' : ''}${s.rounds} rounds × ${s.durationS} s per contender after ${warmupText(s)}; contenders alternate each round; figures are median (min–max) over rounds; ratios are per-round ratios of contenders measured in the same run.`,
    '',
    '## Goals',
    '',
    '| workload | goal | met | measured |',
    '|---|---|---|---|',
  ];
  for (const w of results.workloads) {
    for (const g of w.goals) lines.push(`| ${w.id} | ${g.text} | ${g.met === null ? '—' : g.met ? 'yes' : '**no**'} | ${g.detail.replaceAll('|', '/')} |`);
    if (w.goals.length === 0) lines.push(`| ${w.id} | | — | ${w.status} |`);
  }
  lines.push('');
  for (const w of results.workloads) {
    lines.push(`## ${w.id} ${w.title} — ${w.status}`, '');
    for (const note of w.notes) lines.push(`- ${note}`);
    if (w.notes.length) lines.push('');
    for (const c of w.cases) lines.push(...caseTable(c));
    for (const st of w.starts ?? []) lines.push(...startTable(st));
  }
  lines.push('## Reproduce', '', '```sh', 'npm run bench            # full run (datasets are built once, then cached under data/bench)', 'npm run bench -- --quick # sanity run, under 3 minutes', 'npm run bench -- --only W1,W4', '```', '');
  return lines.join('\n');
}

export function writeResults(outDir: string, results: Results): { md: string; json: string } {
  const dir = resolve(ROOT, outDir);
  mkdirSync(dir, { recursive: true });
  const md = join(dir, 'latest.md');
  const json = join(dir, 'latest.json');
  writeFileSync(json, JSON.stringify(results, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n');
  writeFileSync(md, markdown(results));
  return { md, json };
}

