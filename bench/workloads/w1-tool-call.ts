// W1 tool call: authenticated `tools/call list_meetings {limit: 25}` on an organization with
// 100,000 meetings, concurrency 32, in both eras, against three anchors: (a) bare node:http with a
// fixed result (this machine's ceiling), (b) the SDK as documented (schema inside the factory),
// (c) the SDK with the schema hoisted (the SDK's floor). (b) and (c) answer with a 100-byte echo;
// a fourth anchor, not in the goals, shows the same work done the SDK's way: (d) the SDK as
// documented serving the same page from the same SQLite database.
import type { CaseResult, CaseSpec, Contender } from '../lib/compare.ts';
import { runCase } from '../lib/compare.ts';
import { ensureDataset, postgresReachable, type Dataset } from '../lib/datasets.ts';
import { ERAS, type Era } from '../lib/mcp-requests.ts';
import type { Spread } from '../lib/stats.ts';
import { variables } from '../../src/config/defaults.ts';
import { anchor, DEMO_USER, serviceContender, toolLoad } from './contenders.ts';
import { type BenchEnv, type Goal, type Workload, type WorkloadResult } from './types.ts';

const ARGS = { limit: 25 };
const CONNECTIONS = 32;

export function w1Anchors(era: Era): Contender[] {
  const load = toolLoad(era, 'list_meetings', ARGS);
  return [
    anchor('bare', '(a) bare node:http', 'bench/anchors/bare-http.ts', load),
    anchor('sdk-docs', '(b) SDK as documented', 'bench/anchors/sdk-docs.ts', load),
    anchor('sdk-hoisted', '(c) SDK, schema hoisted', 'bench/anchors/sdk-hoisted.ts', load),
  ];
}

/** Anchor (d): the SDK as documented, answering the service's page from the same SQLite dataset (links to the service's default APP_URL, which the bench keeps). */
export const samePageAnchor = (era: Era, dataset: Pick<Dataset, 'databaseUrl'>, env: Record<string, string> = {}): Contender =>
  anchor('sdk-same-page', '(d) SDK as documented, same page', 'bench/anchors/sdk-same-page.ts', toolLoad(era, 'list_meetings', ARGS), {
    DATABASE_URL: dataset.databaseUrl,
    BENCH_ORG_DOMAIN: DEMO_USER.slice(DEMO_USER.indexOf('@') + 1),
    APP_URL: variables.APP_URL.default,
    ...env,
  });

const ratioOf = (c: CaseResult, label: string): Spread | undefined => c.ratios.find((r) => r.label === label)?.value;
const fmt = (s: Spread | undefined, digits = 2) => (s ? `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})` : 'n/a');

function goals(cases: CaseResult[]): Goal[] {
  const each = (test: (c: CaseResult) => { ok: boolean | null; detail: string }): { met: boolean | null; detail: string } => {
    const results = cases.map((c) => ({ c, r: test(c) }));
    const known = results.filter((x) => x.r.ok !== null);
    return {
      met: known.length === 0 ? null : known.every((x) => x.r.ok),
      detail: results.map((x) => `${x.c.title}: ${x.r.detail}`).join('; '),
    };
  };
  const ratioGoal = (label: string, min: number) =>
    each((c) => {
      const r = ratioOf(c, label);
      return { ok: r ? r.median >= min : null, detail: fmt(r) };
    });
  const sqlite = (c: CaseResult) => c.contenders.find((x) => x.name === 'service-sqlite')?.summary;
  return [
    { text: 'SQLite ≥ 2× the throughput of (b)', ...ratioGoal('service (SQLite) / (b) req/s', 2) },
    { text: 'SQLite ≥ 0.7× the throughput of (c)', ...ratioGoal('service (SQLite) / (c) req/s', 0.7) },
    { text: 'p99 ≤ 25 ms on SQLite', ...each((c) => ({ ok: sqlite(c) ? (sqlite(c)?.p99.median ?? Infinity) <= 25 : null, detail: `${sqlite(c)?.p99.median.toFixed(1) ?? 'n/a'} ms` })) },
    { text: 'peak RSS ≤ 250 MB on SQLite', ...each((c) => ({ ok: sqlite(c) ? (sqlite(c)?.peakRssMb.max ?? Infinity) <= 250 : null, detail: `${sqlite(c)?.peakRssMb.max.toFixed(0) ?? 'n/a'} MB` })) },
    { text: 'PostgreSQL ≥ 0.6× SQLite throughput', ...ratioGoal('service (PostgreSQL) / service (SQLite) req/s', 0.6) },
  ];
}

export const w1: Workload = {
  id: 'W1',
  title: 'tool call: list_meetings {limit: 25}, concurrency 32, both eras',
  async run(env: BenchEnv): Promise<WorkloadResult> {
    const meetings = env.options.quick ? 1_000 : 100_000;
    const notes: string[] = [];
    const lacking = env.options.anchorsOnly ? ['--anchors-only'] : [];
    if (meetings > env.options.maxMeetings) lacking.push(`${meetings.toLocaleString('en-US')} meetings is above --max-meetings ${env.options.maxMeetings}`);
    const datasets: { dialect: 'sqlite' | 'postgres'; dataset: Dataset }[] = [];
    if (lacking.length === 0) {
      datasets.push({ dialect: 'sqlite', dataset: await ensureDataset(env.options.dataDir, { dialect: 'sqlite', meetings }, env.log) });
      const pgProblem = await postgresReachable();
      if (pgProblem) notes.push(`PostgreSQL case skipped: ${pgProblem}`);
      else datasets.push({ dialect: 'postgres', dataset: await ensureDataset(env.options.dataDir, { dialect: 'postgres', meetings }, env.log) });
      notes.push(`service on ${meetings.toLocaleString('en-US')} meetings (Northwind), token for ${'ada.admin@northwind.example'} via issueGrantTokens`);
    } else {
      notes.push(`service not run: ${lacking.join('; ')} — anchors only`);
    }
    const cases: CaseResult[] = [];
    for (const era of ERAS) {
      const contenders: Contender[] = datasets.map(({ dialect, dataset }) =>
        serviceContender(`service-${dialect}`, `service (${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'})`, dataset, env.options.dataDir, (_r, bearer) =>
          toolLoad(era, 'list_meetings', ARGS, bearer),
        ),
      );
      contenders.push(...w1Anchors(era));
      const sqlite = datasets.find((d) => d.dialect === 'sqlite');
      if (sqlite) contenders.push(samePageAnchor(era, sqlite.dataset));
      const spec: CaseSpec = {
        id: `W1-${era}`,
        title: `${era} requests`,
        connections: CONNECTIONS,
        contenders,
        ratios: [
          { label: 'service (SQLite) / (b) req/s', a: 'service-sqlite', b: 'sdk-docs', metric: 'rps' },
          { label: 'service (SQLite) / (c) req/s', a: 'service-sqlite', b: 'sdk-hoisted', metric: 'rps' },
          { label: 'service (SQLite) / (a) req/s', a: 'service-sqlite', b: 'bare', metric: 'rps' },
          { label: 'service (SQLite) / (d) req/s', a: 'service-sqlite', b: 'sdk-same-page', metric: 'rps' },
          { label: 'service (PostgreSQL) / service (SQLite) req/s', a: 'service-postgres', b: 'service-sqlite', metric: 'rps' },
          { label: '(c) / (b) req/s', a: 'sdk-hoisted', b: 'sdk-docs', metric: 'rps' },
          { label: '(b) / (a) req/s', a: 'sdk-docs', b: 'bare', metric: 'rps' },
        ],
      };
      env.log(`W1 ${era}: ${contenders.map((c) => c.label).join(', ')}`);
      cases.push(await runCase(spec, env.compare));
    }
    const failed = cases.flatMap((c) => c.contenders.filter((x) => x.error).map((x) => `${c.title} ${x.label}: ${x.error}`));
    notes.push(...failed);
    const status = datasets.length === 0 || failed.length ? 'partial' : 'ran';
    return { id: this.id, title: this.title, status, notes, cases, goals: goals(cases) };
  },
};

