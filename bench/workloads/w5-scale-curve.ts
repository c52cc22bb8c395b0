// W5 scale curve: list_meetings p50 at 10,000, 100,000 and 1,000,000 meetings in one
// organization, one connection (latency without queueing: the cost of one call). The goal asks
// for at most logarithmic growth (indexes and keyset cursors; no OFFSET, no per-row queries).
import type { Contender } from '../lib/compare.ts';
import { runCase } from '../lib/compare.ts';
import { ensureDataset, sqliteFits } from '../lib/datasets.ts';
import { serviceContender, toolLoad } from './contenders.ts';
import { notRun, pending, ratioShown, type BenchEnv, type Workload, type WorkloadResult } from './types.ts';

const ERA = '2026-07-28' as const;
const CONNECTIONS = 1;
const GOAL = 'p50 at the largest size ≤ 2× p50 at the smallest';

export const w5: Workload = {
  id: 'W5',
  title: 'scale curve: list_meetings p50 at 10,000 / 100,000 / 1,000,000 meetings (SQLite)',
  async run(env: BenchEnv): Promise<WorkloadResult> {
    const lacking = env.options.anchorsOnly ? ['--anchors-only'] : [];
    if (lacking.length) return notRun(this, lacking, [pending(GOAL)]);
    const sizes = env.options.quick ? [100, 1_000] : [10_000, 100_000, 1_000_000];
    const notes: string[] = env.options.quick ? ['quick run: sizes 100 / 1,000 stand in for the goal’s'] : [];
    const contenders: Contender[] = [];
    for (const meetings of sizes) {
      if (meetings > env.options.maxMeetings) {
        notes.push(`${meetings.toLocaleString('en-US')} meetings skipped: above --max-meetings ${env.options.maxMeetings}`);
        continue;
      }
      const room = sqliteFits(env.options.dataDir, meetings);
      if (!room.fits) {
        notes.push(`${meetings.toLocaleString('en-US')} meetings not run: the dataset needs ~${room.needGb.toFixed(0)} GB, ${room.freeGb.toFixed(0)} GB free`);
        continue;
      }
      const dataset = await ensureDataset(env.options.dataDir, { dialect: 'sqlite', meetings }, env.log);
      contenders.push(
        serviceContender(`m${meetings}`, `${meetings.toLocaleString('en-US')} meetings`, dataset, env.options.dataDir, (_r, bearer) =>
          toolLoad(ERA, 'list_meetings', { limit: 25 }, bearer),
        ),
      );
    }
    if (contenders.length < 2) return { id: this.id, title: this.title, status: 'not run', notes, cases: [], goals: [pending(GOAL)] };
    const first = contenders[0] as Contender;
    const last = contenders.at(-1) as Contender;
    const result = await runCase(
      {
        id: 'W5',
        title: 'list_meetings {limit: 25}, 2026-07-28, one connection',
        connections: CONNECTIONS,
        contenders,
        ratios: contenders.slice(1).map((c) => ({ label: `p50 ${c.label} / ${first.label}`, a: c.name, b: first.name, metric: 'p50' as const })),
      },
      env.compare,
    );
    const ratio = result.ratios.find((r) => r.label.startsWith(`p50 ${last.label}`));
    const full = !env.options.quick && last.name === 'm1000000';
    const errors = result.contenders.filter((x) => x.error).map((x) => `${x.label}: ${x.error}`);
    return {
      id: this.id,
      title: this.title,
      status: errors.length || contenders.length < sizes.length ? 'partial' : 'ran',
      notes: [...notes, ...errors],
      cases: [result],
      goals: [
        ratio
          ? { text: GOAL + (full ? '' : ` (measured ${last.label} vs ${first.label})`), met: full ? ratio.value.median <= 2 : null, detail: `${ratioShown(ratio.value.median, 2)}× (${ratio.value.min.toFixed(2)}–${ratio.value.max.toFixed(2)})` }
          : pending(GOAL),
      ],
    };
  },
};
