// What a workload is and what it reports.
import type { BenchOptions } from '../lib/args.ts';
import type { CaseResult, CompareOptions } from '../lib/compare.ts';
import type { Spread } from '../lib/stats.ts';

export type Goal = { text: string; met: boolean | null; detail: string };

/** Start-time measurements (W6): process start to the first 200 on the readiness path. */
export type StartResult = { id: string; title: string; contenders: { name: string; label: string; startMs?: Spread; peakRssMb?: Spread; error?: string }[] };

export type WorkloadResult = {
  id: string;
  title: string;
  status: 'ran' | 'partial' | 'not run' | 'failed';
  /** Why it did not run, or what was left out. */
  notes: string[];
  cases: CaseResult[];
  starts?: StartResult[];
  goals: Goal[];
};

export type BenchEnv = {
  options: BenchOptions;
  compare: CompareOptions;
  log: (line: string) => void;
};

export type Workload = { id: string; title: string; run(env: BenchEnv): Promise<WorkloadResult> };

export const notRun = (w: { id: string; title: string }, missing: string[], goals: Goal[] = []): WorkloadResult => ({
  id: w.id,
  title: w.title,
  status: 'not run',
  notes: [`not run: ${missing.join('; ')}`],
  cases: [],
  goals,
});

export const pending = (text: string): Goal => ({ text, met: null, detail: 'not measured' });

/**
 * A ratio as a goal's detail shows it: two decimals, or more when two would print the threshold
 * itself for a value on the other side of it (1.497 against ≥ 1.5 is "1.497", not "1.50").
 */
export function ratioShown(value: number, threshold: number): string {
  let digits = 2;
  while (digits < 6 && value !== threshold && value.toFixed(digits) === threshold.toFixed(digits)) digits += 1;
  return value.toFixed(digits);
}
