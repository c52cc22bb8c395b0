// W2 transcript page: get_meeting_transcript on the longest (two-hour) meeting, first page and a
// middle cursor; anchor: the raw SQL query that fetches the same rows (the page's segments).
import type { CaseResult, Contender } from '../lib/compare.ts';
import { runCase } from '../lib/compare.ts';
import { ensureDataset, postgresReachable, type Dataset } from '../lib/datasets.ts';
import { send, toolCall } from '../lib/mcp-requests.ts';
import { queryDataset } from '../lib/sql.ts';
import { anchor, serviceContender, toolLoad } from './contenders.ts';
import { notRun, pending, type BenchEnv, type Goal, type Workload, type WorkloadResult } from './types.ts';

const CONNECTIONS = 8;
const ERA = '2026-07-28' as const;
/** The page's rows, with the page size written into the SQL as the service writes it (a bound LIMIT reads ~1.8× slower on SQLite). */
const rawSql = (rows: number) => `select org_id, meeting_id, idx, start_ms, end_ms, speaker, participant_id, text from transcript_segments where org_id = ? and meeting_id = ? and idx >= ? order by idx limit ${Math.trunc(rows)}`;

type Page = { segments: { i: number }[]; next_cursor: string | null; total_segments: number; range: { first_i: number | null } };

const GOALS = ['p99 ≤ 10 ms', '≤ 3× the raw query (p50)'];

async function longestMeeting(dataset: Dataset): Promise<{ org_id: string; id: string; minutes: number; segment_count: number }> {
  const rows = await queryDataset<{ org_id: string; id: string; minutes: number; segment_count: number }>(
    dataset.databaseUrl,
    `select m.org_id, m.id, (m.end_at - m.start_at) / 60000 as minutes, m.segment_count
       from meetings m join organizations o on o.id = m.org_id
      where o.name = 'Northwind Software' and m.has_transcript = 1
      order by m.end_at - m.start_at desc, m.segment_count desc limit 1`,
  );
  const row = rows[0];
  if (!row) throw new Error('no meeting with a transcript in the dataset');
  return { ...row, minutes: Number(row.minutes), segment_count: Number(row.segment_count) };
}

export const w2: Workload = {
  id: 'W2',
  title: 'transcript page: get_meeting_transcript on a two-hour meeting',
  async run(env: BenchEnv): Promise<WorkloadResult> {
    const lacking = env.options.anchorsOnly ? ['--anchors-only (the anchor needs the service’s dataset)'] : [];
    const meetings = env.options.quick ? 1_000 : 100_000;
    if (meetings > env.options.maxMeetings) lacking.push(`${meetings.toLocaleString('en-US')} meetings is above --max-meetings ${env.options.maxMeetings}`);
    if (lacking.length) return notRun(this, lacking, GOALS.map(pending));
    const dialects: ('sqlite' | 'postgres')[] = ['sqlite'];
    const notes: string[] = [];
    const pgProblem = env.options.quick ? 'quick run' : await postgresReachable();
    if (pgProblem) notes.push(`PostgreSQL skipped: ${pgProblem}`);
    else dialects.push('postgres');
    const cases: CaseResult[] = [];
    for (const dialect of dialects) {
      const dataset = await ensureDataset(env.options.dataDir, { dialect, meetings }, env.log);
      const meeting = await longestMeeting(dataset);
      notes.push(`${dialect}: meeting ${meeting.id}, ${meeting.minutes} min, ${meeting.segment_count} segments`);
      // Pages are found through the service itself: the first, and the one a cursor halfway in starts.
      const pages: { name: string; args: Record<string, unknown>; firstI: number; rows: number }[] = [];
      const service = serviceContender('service', 'service', dataset, env.options.dataDir, async (running, bearer) => {
        let args: Record<string, unknown> = { meeting_id: meeting.id };
        for (let hop = 0; hop < 200; hop++) {
          const { reply, text } = await send(running.url, toolCall(ERA, 'get_meeting_transcript', args, { bearer }));
          const page = reply?.result?.structuredContent as Page | undefined;
          if (!page || reply?.result?.isError) throw new Error(`get_meeting_transcript failed: ${text.slice(0, 300)}`);
          const firstI = page.range.first_i ?? 0;
          if (hop === 0) pages.push({ name: 'first page', args, firstI, rows: page.segments.length });
          if (firstI >= page.total_segments / 2 || !page.next_cursor) {
            pages.push({ name: 'middle cursor', args, firstI, rows: page.segments.length });
            break;
          }
          args = { meeting_id: meeting.id, cursor: page.next_cursor };
        }
        return toolLoad(ERA, 'get_meeting_transcript', pages[0]?.args ?? {}, bearer);
      });
      // One case per page; the first case's service load discovers the pages.
      for (const which of [0, 1]) {
        const contenders: Contender[] = [
          {
            ...service,
            async load(running) {
              const first = await service.load(running);
              const page = pages[which];
              if (!page) throw new Error('page not found');
              const bearer = (first.headers.authorization ?? '').replace(/^Bearer /, '');
              return toolLoad(ERA, 'get_meeting_transcript', page.args, bearer);
            },
          },
          anchor('raw-sql', 'raw SQL (same rows)', 'bench/anchors/raw-sql.ts', { method: 'POST', path: '/', headers: {}, body: '' }, {}),
        ];
        // The anchor's query depends on the page, known only once the service answered: start it second.
        const raw = contenders[1] as Contender;
        raw.process = {
          ...raw.process,
          env: () => {
            const page = pages[which];
            return { DATABASE_URL: dataset.databaseUrl, BENCH_SQL: rawSql(page?.rows ?? 0), BENCH_PARAMS: JSON.stringify([meeting.org_id, meeting.id, page?.firstI ?? 0]) };
          },
        };
        pages.length = 0;
        cases.push(
          await runCase(
            {
              id: `W2-${dialect}-${which === 0 ? 'first' : 'middle'}`,
              title: `${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${which === 0 ? 'first page' : 'middle cursor'}`,
              connections: CONNECTIONS,
              contenders,
              ratios: [{ label: 'service / raw SQL p50', a: 'service', b: 'raw-sql', metric: 'p50' }, { label: 'service / raw SQL p99', a: 'service', b: 'raw-sql', metric: 'p99' }],
            },
            env.compare,
          ),
        );
      }
    }
    const goals: Goal[] = [
      {
        text: 'p99 ≤ 10 ms',
        ...verdict(cases.map((c) => ({ c, v: c.contenders.find((x) => x.name === 'service')?.summary?.p99.median })), (v) => v <= 10, (v) => `${v.toFixed(1)} ms`),
      },
      {
        text: '≤ 3× the raw query (p50)',
        ...verdict(cases.map((c) => ({ c, v: c.ratios.find((r) => r.label.endsWith('p50'))?.value.median })), (v) => v <= 3, (v) => `${v.toFixed(2)}×`),
      },
    ];
    const errors = cases.flatMap((c) => c.contenders.filter((x) => x.error).map((x) => `${c.title} ${x.label}: ${x.error}`));
    return { id: this.id, title: this.title, status: errors.length ? 'partial' : 'ran', notes: [...notes, ...errors], cases, goals };
  },
};

export function verdict(items: { c: CaseResult; v: number | undefined }[], ok: (v: number) => boolean, show: (v: number) => string): { met: boolean | null; detail: string } {
  const known = items.filter((x) => x.v !== undefined && Number.isFinite(x.v));
  // Met only when every case was measured: a case without a figure leaves the goal open (—), unless
  // a measured one already fails it.
  const failed = known.some((x) => !ok(x.v as number));
  return {
    met: failed ? false : known.length === items.length && items.length > 0 ? true : null,
    detail: items.map((x) => `${x.c.title}: ${x.v === undefined || !Number.isFinite(x.v) ? 'n/a' : show(x.v)}`).join('; '),
  };
}
