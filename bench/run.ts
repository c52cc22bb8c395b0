// `npm run bench`: runs the workloads side by side with their anchors and writes
// bench/results/latest.md and latest.json. See bench/README.md.
import { parseArgs, USAGE, UsageError } from './lib/args.ts';
import { machine, writeResults, RESULTS_VERSION, type Results } from './lib/report.ts';
import type { BenchEnv, WorkloadResult } from './workloads/types.ts';
import { workloads } from './workloads/index.ts';
import { useRedisIfReachable, warmCompileCache } from './lib/service.ts';

export async function runBench(argv: string[]): Promise<{ results: Results; files: { md: string; json: string } }> {
  const options = parseArgs(argv);
  const log = options.quiet ? () => {} : (line: string) => process.stderr.write(line + '\n');
  const env: BenchEnv = {
    options,
    compare: { rounds: options.rounds, durationS: options.durationS, warmupS: options.warmupS, warmupRequests: options.warmupRequests, warmupMaxS: options.warmupMaxS, log, profileDir: options.profileDir, allocProfileDir: options.allocProfileDir },
    log,
  };
  const startedAt = new Date().toISOString();
  const m = machine();
  const selected = workloads.filter((w) => options.only.length === 0 || options.only.includes(w.id));
  const done: WorkloadResult[] = [];
  const redis = await useRedisIfReachable();
  const snapshot = (): Results => ({
    version: RESULTS_VERSION,
    startedAt,
    finishedAt: new Date().toISOString(),
    command: ['npm run bench', ...(argv.length ? ['--', ...argv] : [])].join(' '),
    machine: m,
    redis,
    settings: { quick: options.quick, only: options.only, rounds: options.rounds, durationS: options.durationS, warmupS: options.warmupS, warmupRequests: options.warmupRequests, warmupMaxS: options.warmupMaxS, anchorsOnly: options.anchorsOnly },
    workloads: done,
  });
  await warmCompileCache();
  for (const w of selected) {
    log(`${w.id} ${w.title}`);
    try {
      const result = await w.run(env);
      done.push(result);
    } catch (error) {
      // A workload that breaks must not take the others (or the report) down with it.
      const message = error instanceof Error ? error.message : String(error);
      log(`  ${w.id} failed: ${message}`);
      done.push({ id: w.id, title: w.title, status: 'failed', notes: [`failed: ${message}`], cases: [], goals: [] });
    }
    // Written after every workload, so a long run that is stopped still leaves what it measured.
    writeResults(options.outDir, snapshot());
  }
  const results = snapshot();
  return { results, files: writeResults(options.outDir, results) };
}

if (import.meta.main) {
  try {
    const started = performance.now();
    const { files, results } = await runBench(process.argv.slice(2));
    process.stderr.write(`\nwrote ${files.md} and ${files.json} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    for (const w of results.workloads) process.stderr.write(`  ${w.id}: ${w.status}${w.notes[0] ? ` — ${w.notes[0]}` : ''}\n`);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message ? `bench: ${error.message}\n\n` : ''}${USAGE}`);
      process.exitCode = error.message ? 2 : 0;
    } else throw error;
  }
}
