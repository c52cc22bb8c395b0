// W6 start: process start to the first 200 on /readyz, on an existing 1,000,000-meeting SQLite
// database (migrations already applied). Each round starts and stops every contender once,
// alternating; beside the service, the bare node:http anchor shows what Node itself costs here.
import type { Contender } from '../lib/compare.ts';
import { ensureDataset, largestCachedSqlite, sqliteFits, type Dataset } from '../lib/datasets.ts';
import { memoryOf, startProcess } from '../lib/proc.ts';
import { serviceProcess } from '../lib/service.ts';
import { spread } from '../lib/stats.ts';
import { scratchDir } from './contenders.ts';
import type { BenchEnv, StartResult, Workload, WorkloadResult } from './types.ts';

const GOAL = 'start → /readyz 200 ≤ 1.5 s on 1,000,000 meetings';

export const w6: Workload = {
  id: 'W6',
  title: 'start: process start to /readyz 200 on a 1,000,000-meeting SQLite database',
  async run(env: BenchEnv): Promise<WorkloadResult> {
    const notes: string[] = [];
    const wanted = env.options.quick ? 1_000 : 1_000_000;
    let dataset: Dataset | undefined;
    const lacking = env.options.anchorsOnly ? ['--anchors-only'] : [];
    if (lacking.length === 0) {
      const room = wanted > env.options.maxMeetings ? { fits: false, needGb: Number.NaN, freeGb: Number.NaN } : sqliteFits(env.options.dataDir, wanted);
      if (room.fits) dataset = await ensureDataset(env.options.dataDir, { dialect: 'sqlite', meetings: wanted }, env.log);
      else {
        notes.push(
          wanted > env.options.maxMeetings
            ? `${wanted.toLocaleString('en-US')}-meeting dataset skipped: above --max-meetings ${env.options.maxMeetings}`
            : `${wanted.toLocaleString('en-US')}-meeting dataset not built: needs ~${room.needGb.toFixed(0)} GB, ${room.freeGb.toFixed(0)} GB free`,
        );
        const largest = largestCachedSqlite(env.options.dataDir);
        if (largest !== undefined) dataset = await ensureDataset(env.options.dataDir, { dialect: 'sqlite', meetings: largest }, env.log);
        if (dataset) notes.push(`stand-in: the largest cached dataset, ${dataset.meetings.toLocaleString('en-US')} meetings`);
      }
    } else notes.push(`service not run: ${lacking.join('; ')}`);
    if (env.options.quick) notes.push('quick run: 1,000 meetings stand in for 1,000,000');
    const contenders: Pick<Contender, 'name' | 'label' | 'process'>[] = [];
    if (dataset) contenders.push({ name: 'service', label: `service (${dataset.meetings.toLocaleString('en-US')} meetings)`, process: serviceProcess(dataset.databaseUrl, scratchDir(env.options.dataDir)) });
    contenders.push({ name: 'bare', label: 'bare node:http', process: { args: ['bench/anchors/bare-http.ts'], readyPath: '/healthz' } });
    const rounds = Math.max(3, env.options.rounds);
    const samples = new Map(contenders.map((c) => [c.name, { start: [] as number[], rss: [] as number[], error: undefined as string | undefined }]));
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < contenders.length; k++) {
        const c = contenders[(round + k) % contenders.length] as (typeof contenders)[number];
        const s = samples.get(c.name) as { start: number[]; rss: number[]; error?: string };
        if (s.error) continue;
        try {
          const running = await startProcess(c.process);
          s.start.push(running.startMs);
          s.rss.push(memoryOf(running.pid).peakMb);
          await running.stop();
          env.log(`  W6 round ${round + 1}/${rounds} ${c.label}: ${running.startMs.toFixed(0)} ms`);
        } catch (error) {
          s.error = error instanceof Error ? error.message : String(error);
        }
      }
    }
    const start: StartResult = {
      id: 'W6',
      title: `${rounds} starts each, alternating`,
      contenders: contenders.map((c) => {
        const s = samples.get(c.name) as { start: number[]; rss: number[]; error?: string };
        return { name: c.name, label: c.label, ...(s.start.length ? { startMs: spread(s.start), peakRssMb: spread(s.rss) } : {}), ...(s.error ? { error: s.error } : {}) };
      }),
    };
    const service = start.contenders.find((c) => c.name === 'service');
    const full = !env.options.quick && dataset?.meetings === wanted;
    const goal = service?.startMs
      ? { text: GOAL, met: full ? service.startMs.median <= 1500 : null, detail: `${service.startMs.median.toFixed(0)} ms (${service.startMs.min.toFixed(0)}–${service.startMs.max.toFixed(0)})${full ? '' : ' on a stand-in dataset'}` }
      : { text: GOAL, met: null, detail: 'not measured' };
    const errors = start.contenders.filter((c) => c.error).map((c) => `${c.label}: ${c.error}`);
    return { id: this.id, title: this.title, status: !full && !env.options.quick ? 'partial' : errors.length ? 'partial' : 'ran', notes: [...notes, ...errors], cases: [], starts: [start], goals: [goal] };
  },
};
