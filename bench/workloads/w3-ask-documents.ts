// W3 ask_documents: 10,000 documents (~200,000 chunks) and 100,000 documents, on SQLite and
// PostgreSQL; anchor: the raw full-text query alone — the question's content words OR-ed, matched
// and ranked by the engine (FTS5 bm25 / tsvector ts_rank_cd) over the caller's visible documents,
// the best 30 — without the search module's query planning, reranking, answer or protocol. It is
// written here, not taken from src/search, so the floor stays put while the module changes.
import type { CaseResult } from '../lib/compare.ts';
import { runCase } from '../lib/compare.ts';
import { ensureDataset, postgresReachable, type Dialect } from '../lib/datasets.ts';
import { queryDataset } from '../lib/sql.ts';
import type { Load } from '../lib/compare.ts';
import type { Running } from '../lib/proc.ts';
import { anchor, serviceContender, toolLoad } from './contenders.ts';
import { send } from '../lib/mcp-requests.ts';
import { notRun, pending, type BenchEnv, type Goal, type Workload, type WorkloadResult } from './types.ts';
import { verdict } from './w2-transcript.ts';

const CONNECTIONS = 8;
const ERA = '2026-07-28' as const;
/**
 * A question the demo corpus answers (Forecastly is one of its competitors), so the measured path
 * is retrieval, reranking and a cited answer. The earlier question named a competitor no document
 * mentions and measured the quick "not found" path instead.
 */
const QUESTION = 'How should we handle pricing objections when the buyer compares us with Forecastly?';
/** The question's content words (what any term extraction keeps of it). */
const TERMS = ['pricing', 'objections', 'buyer', 'compares', 'forecastly'];
const FTS5_MATCH = TERMS.map((t) => `"${t}"`).join(' OR ');
const WEBSEARCH = TERMS.join(' or ');
/** Candidates the anchor fetches (ask_documents asked the index for max(30, 6 × top_k) when this was written). */
const CANDIDATES = 30;

const SQLITE_FTS = `select c.document_id, c.idx, c.heading, c.text, d.title, d.url, d.source, d.last_modified, f.rank
  from (select rowid, bm25(document_chunks_fts, 4.0, 3.0, 1.0) as rank from document_chunks_fts where document_chunks_fts match ?) f
  join document_chunks c on c.id = f.rowid
  join documents d on d.org_id = c.org_id and d.id = c.document_id
  where c.org_id = ? and (d.org_id = ? and d.visibility = 'org')
  order by f.rank, c.document_id, c.idx limit ${CANDIDATES}`;
const POSTGRES_FTS = `select c.document_id, c.idx, c.heading, c.text, d.title, d.url, d.source, d.last_modified,
    ts_rank_cd('{0.3, 0.2, 0.6, 1.0}'::float4[], c.tsv, websearch_to_tsquery('english', ?), 1) as rank
  from document_chunks c join documents d on d.org_id = c.org_id and d.id = c.document_id
  where c.tsv @@ websearch_to_tsquery('english', ?) and c.org_id = ? and (d.org_id = ? and d.visibility = 'org')
  order by rank desc, c.document_id, c.idx limit ${CANDIDATES}`;

const GOAL_MS: Record<number, number> = { 10_000: 50, 100_000: 150 };

/** Before measuring: the question must be answered from passages, or the case measures the wrong path. */
async function probeGrounded(running: Running, load: Load): Promise<void> {
  const { status, reply, text } = await send(running.url, { method: 'POST', path: load.path, headers: load.headers ?? {}, body: load.body ?? '' });
  if (status !== 200 || reply?.result?.structuredContent?.grounded !== true) throw new Error(`ask_documents probe is not a grounded answer: ${text.slice(0, 300)}`);
}

export const w3: Workload = {
  id: 'W3',
  title: 'ask_documents over 10,000 and 100,000 documents, SQLite and PostgreSQL',
  async run(env: BenchEnv): Promise<WorkloadResult> {
    const goalTexts = ['p95 ≤ 50 ms at 10,000 documents, both dialects', 'p95 ≤ 150 ms at 100,000 documents, both dialects'];
    const lacking = env.options.anchorsOnly
      ? ['--anchors-only (the anchor needs the service’s dataset)'] : [];
    if (lacking.length) return notRun(this, lacking, goalTexts.map(pending));
    const wanted = env.options.quick ? [500] : [10_000, 100_000];
    const sizes = wanted.filter((n) => n <= env.options.maxDocuments);
    const dialects: Dialect[] = ['sqlite'];
    const notes: string[] = [`question: "${QUESTION}" (anchor terms: ${TERMS.join(' ')}); user ada.admin (org-visible documents)`];
    for (const n of wanted.filter((n) => !sizes.includes(n))) notes.push(`${n.toLocaleString('en-US')} documents skipped: above --max-documents ${env.options.maxDocuments}`);
    const pgProblem = await postgresReachable();
    if (pgProblem) notes.push(`PostgreSQL skipped: ${pgProblem}`);
    else dialects.push('postgres');
    const cases: CaseResult[] = [];
    for (const documents of sizes) {
      for (const dialect of dialects) {
        const dataset = await ensureDataset(env.options.dataDir, { dialect, meetings: 10, documents }, env.log);
        const org = (await queryDataset<{ id: string }>(dataset.databaseUrl, `select id from organizations where name = 'Northwind Software'`))[0];
        if (!org) throw new Error('Northwind Software missing from the documents dataset');
        notes.push(`${dialect} ${documents.toLocaleString('en-US')} documents: ${JSON.stringify(dataset.info.chunks ?? '?')} chunks`);
        const sqlText = dialect === 'sqlite' ? SQLITE_FTS : POSTGRES_FTS;
        const params = dialect === 'sqlite' ? [FTS5_MATCH, org.id, org.id] : [WEBSEARCH, WEBSEARCH, org.id, org.id];
        cases.push(
          await runCase(
            {
              id: `W3-${dialect}-${documents}`,
              title: `${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${documents.toLocaleString('en-US')} documents`,
              connections: CONNECTIONS,
              contenders: [
                { ...serviceContender('service', 'service ask_documents', dataset, env.options.dataDir, (_r, bearer) => toolLoad(ERA, 'ask_documents', { question: QUESTION }, bearer)), probe: probeGrounded },
                anchor('raw-fts', 'raw full-text query', 'bench/anchors/raw-sql.ts', { method: 'POST', path: '/', headers: {}, body: '' }, {
                  DATABASE_URL: dataset.databaseUrl,
                  BENCH_SQL: sqlText,
                  BENCH_PARAMS: JSON.stringify(params),
                }),
              ],
              ratios: [{ label: 'service / raw query p95', a: 'service', b: 'raw-fts', metric: 'p95' }],
            },
            env.compare,
          ),
        );
      }
    }
    const at = (size: number) =>
      verdict(
        cases.filter((c) => c.id.endsWith(`-${size}`)).map((c) => ({ c, v: c.contenders.find((x) => x.name === 'service')?.summary?.p95.median })),
        (v) => v <= (GOAL_MS[size] ?? Infinity),
        (v) => `p95 ${v.toFixed(1)} ms`,
      );
    const goals: Goal[] = [
      { text: goalTexts[0] as string, ...at(10_000) },
      { text: goalTexts[1] as string, ...at(100_000) },
    ];
    const errors = cases.flatMap((c) => c.contenders.filter((x) => x.error).map((x) => `${c.title} ${x.label}: ${x.error}`));
    return { id: this.id, title: this.title, status: errors.length ? 'partial' : 'ran', notes: [...notes, ...errors], cases, goals };
  },
};
