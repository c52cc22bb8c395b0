// W5 scale curve: list_meetings p50 at 10,000, 100,000 and 1,000,000 meetings in one
// organization, one connection (latency without queueing: the cost of one call), for an admin and
// for a member (own or attended meetings: two index arms, meeting-arms.ts). The goal asks for at
// most logarithmic growth (indexes and keyset cursors; no OFFSET, no per-row queries) for each.
import type { CaseResult, Contender } from '../lib/compare.ts';
import { runCase } from '../lib/compare.ts';
import { ensureDataset, sqliteFits, type Dataset } from '../lib/datasets.ts';
import { DEMO_USER, serviceContender, toolLoad } from './contenders.ts';
import { notRun, pending, ratioShown, type BenchEnv, type Goal, type Workload, type WorkloadResult } from './types.ts';

const ERA = '2026-07-28' as const;
const CONNECTIONS = 1;
const GOAL = 'p50 at the largest size ≤ 2× p50 at the smallest';
/** Who calls: the admin sees every meeting; the member about one in 30 (own or attended: 3,311 of 100,000). */
const CALLERS = [
  { key: 'admin', title: 'an admin', email: DEMO_USER },
  { key: 'member', title: 'a member', email: 'mia.member@northwind.example' },
] as const;

export const w5: Workload = {
  id: 'W5',
  title: 'scale curve: list_meetings p50 at 10,000 / 100,000 / 1,000,000 meetings (SQLite), as an admin and as a member',
  async run(env: BenchEnv): Promise<WorkloadResult> {
    const lacking = env.options.anchorsOnly ? ['--anchors-only'] : [];
    if (lacking.length) return notRun(this, lacking, CALLERS.map((c) => pending(`${c.title}: ${GOAL}`)));
    const sizes = env.options.quick ? [100, 1_000] : [10_000, 100_000, 1_000_000];
    const notes: string[] = env.options.quick ? ['quick run: sizes 100 / 1,000 stand in for the goal’s'] : [];
    const datasets: { meetings: number; dataset: Dataset }[] = [];
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
      datasets.push({ meetings, dataset: await ensureDataset(env.options.dataDir, { dialect: 'sqlite', meetings }, env.log) });
    }
    if (datasets.length < 2) return { id: this.id, title: this.title, status: 'not run', notes, cases: [], goals: CALLERS.map((c) => pending(`${c.title}: ${GOAL}`)) };
    const full = !env.options.quick && datasets.at(-1)!.meetings === 1_000_000;
    const cases: CaseResult[] = [];
    const goals: Goal[] = [];
    for (const caller of CALLERS) {
      const contenders: Contender[] = datasets.map(({ meetings, dataset }) =>
        serviceContender(`m${meetings}`, `${meetings.toLocaleString('en-US')} meetings`, dataset, env.options.dataDir, (_r, bearer) => toolLoad(ERA, 'list_meetings', { limit: 25 }, bearer), caller.email),
      );
      const first = contenders[0] as Contender;
      const last = contenders.at(-1) as Contender;
      const result = await runCase(
        {
          id: caller.key === 'admin' ? 'W5' : `W5-${caller.key}`,
          title: `list_meetings {limit: 25} as ${caller.title} (${caller.email}), 2026-07-28, one connection`,
          connections: CONNECTIONS,
          contenders,
          ratios: contenders.slice(1).map((c) => ({ label: `p50 ${c.label} / ${first.label}`, a: c.name, b: first.name, metric: 'p50' as const })),
        },
        env.compare,
      );
      cases.push(result);
      notes.push(...result.contenders.filter((x) => x.error).map((x) => `${caller.title}, ${x.label}: ${x.error}`));
      const ratio = result.ratios.find((r) => r.label.startsWith(`p50 ${last.label}`));
      const text = `${caller.title}: ${GOAL}` + (full ? '' : ` (measured ${last.label} vs ${first.label})`);
      goals.push(ratio ? { text, met: full ? ratio.value.median <= 2 : null, detail: `${ratioShown(ratio.value.median, 2)}× (${ratio.value.min.toFixed(2)}–${ratio.value.max.toFixed(2)})` } : pending(`${caller.title}: ${GOAL}`));
    }
    const errors = cases.some((c) => c.contenders.some((x) => x.error));
    return { id: this.id, title: this.title, status: errors || datasets.length < sizes.length ? 'partial' : 'ran', notes, cases, goals };
  },
};
