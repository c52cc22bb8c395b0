// PostgreSQL full text as a filter: the GIN-indexed `tsv` column (heading A, title B, body D)
// matched against a tsquery built from plainto_tsquery per word (bound parameters; never a syntax
// error); the reranker (answer.ts) ranks.
//
// No ts_rank_cd here: it reads every match's whole tsvector (~19 µs a match), ~300 ms for a
// question of common words on 200,000 passages. The engine hands over a bounded set instead, as
// FTS5 does: the most recently indexed passages with a question word in their title or heading,
// then the most recently indexed of the rest. Unlike FTS5, PostgreSQL still visits every match
// (a GIN bitmap has no order to stop early in), so the cost grows with the matches. Each match is
// judged from its own row: a passage carries its document's visibility, team, source, recency and
// lowered heading + title (migration 0007), and only the passages kept are joined to their
// documents, where the access rule is checked once more.
//
// When the caller says every word is common, the matches are likely dense and visiting them all is
// the cost to avoid (~65,000 for the bench's question on 100,000 documents): the recent-first path
// reads the organization's newest passages in order along an index (migration 0008), checks the
// title/heading words first and the tsvector only for passages that have one, and stops at `limit`
// such matches (~900 passages read for that question, whatever the corpus size). It reads at
// most RECENT_WINDOW passages. When those hold fewer than `limit` title/heading matches, a second
// step gives nearly what the full query would without visiting every match: the title/heading
// matches of the whole corpus (through an index of the heads' words, migration 0009), best first,
// then the newest other matches, which the newest passages hold when matches are common. "Nearly":
// there a title/heading match is PostgreSQL's word match, elsewhere a word starting with a stem
// ("pric" in "Pricing"; "win" also in "Window"). Only when the heads' matches are fewer than `limit`
// and the newest passages hold fewer than `limit` matches at all does the full query run. A
// question whose words are each common but rarely together pays for the bounded scans before the
// full query (~65 ms on 100,000 documents for "What did the buyer say about budget?", 28 ms before).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { DocumentIndex, SearchHit, SearchScope } from './document-index.ts';
import { PASSAGE_COLUMNS, visibleDocuments } from './scope-sql.ts';
import { headFirst, toHit, type HitRow } from './hit-row.ts';
import { stem } from './query-terms.ts';
import type { RetrievalQuery } from './retrieval-plan.ts';

/** Clauses OR-ed (||), groups of a clause AND-ed (&&), alternatives OR-ed; a stop word gives an empty, ignored operand. */
function tsquery(retrieval: RetrievalQuery): RawBuilder<unknown> {
  // PostgreSQL text cannot hold NUL: a word with one would fail the whole query.
  const group = (g: string[]) => sql`(${sql.join(g.map((w) => sql`plainto_tsquery('english', ${w.replaceAll('\0', '')})`), sql` || `)})`;
  const clauses = retrieval.map((c) => c.filter((g) => g.length > 0)).filter((c) => c.length > 0);
  return sql`(${sql.join(clauses.map((c) => sql`(${sql.join(c.map(group), sql` && `)})`), sql` || `)})`;
}

/** The distinct stems of the head words (a NUL cannot be stored, so none is looked for). */
function headStems(words: string[]): string[] {
  return [...new Set(words.map((w) => stem(w.replaceAll('\0', ''))).filter((s) => s.length > 0))];
}

const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
/** A word of the title or heading starts with the stem ("pric" in "Pricing", not in "Apricot"; "ai" not in "Retail"). */
const headStarts = (s: string) => sql`(c.head like ${`${likeEscaped(s)}%`} or c.head like ${`% ${likeEscaped(s)}%`})`;

/**
 * How many of the question's words the title and heading hold, from the words' stems at word starts
 * (the tsvector's weights would say it exactly, but reading them means reading the tsvector). Only
 * the order of candidates depends on it; the reranker checks words exactly.
 */
function inHead(stems: string[]): RawBuilder<number> {
  if (stems.length === 0) return sql<number>`0`;
  return sql<number>`(${sql.join(stems.map((s) => sql`(${headStarts(s)})::int`), sql` + `)})`;
}

/** How many of an organization's newest passages the recent-first path reads at most. */
export const RECENT_WINDOW = 4000;

/** The kept passages' text and documents, with the access rule checked on the documents again. */
function withDocuments(scope: SearchScope, kept: RawBuilder<unknown>, order: RawBuilder<unknown>) {
  return sql<HitRow>`
    select c.document_id, c.idx, c.heading, c.text, d.title, d.url, d.source, d.last_modified
    from (${kept}) kept
    join document_chunks c on c.org_id = kept.org_id and c.document_id = kept.document_id and c.idx = kept.idx
    join documents d on d.org_id = kept.org_id and d.id = kept.document_id
    where ${visibleDocuments(scope)}
    order by ${order}`;
}

/**
 * Whether a search takes the recent-first path: the caller says the words are common, some head
 * word has a stem, and no documents are named (named documents are few: the full query is cheap,
 * and the organization's newest passages would mostly be others').
 */
function recentFirst(scope: SearchScope, limit: number, stems: string[], common: boolean): boolean {
  return common && stems.length > 0 && !scope.documentIds?.length && Number.isInteger(limit) && limit >= 1 && limit <= RECENT_WINDOW;
}

/**
 * The newest passages (at most RECENT_WINDOW of the organization's, visible or not, so the read is
 * bounded) that the caller may see and that match the query, with `stems` only those with a word of
 * their title or heading starting with one of them: newest first, at most `limit`. Both limits are
 * literals and the inner order is the index's, so PostgreSQL streams the index and stops at the
 * `limit`-th match; the CASE keeps the tsvector unread for passages that are not visible or have
 * no head stem (most of them). Without `stems` every visible passage's tsvector is read.
 */
function recentQuery(scope: SearchScope, retrieval: RetrievalQuery, limit: number, stems: string[] | null) {
  const recency = sql`c.doc_updated_at desc, c.document_id desc, c.idx desc`;
  const kept = sql`
    select c.org_id, c.document_id, c.idx, c.doc_updated_at
    from (
      select c.org_id, c.document_id, c.idx, c.doc_updated_at, c.doc_visibility, c.doc_team_id, c.doc_source, c.head, c.tsv
      from document_chunks c
      where c.org_id = ${scope.orgId}
      order by ${recency}
      limit ${sql.lit(RECENT_WINDOW)}
    ) c
    where case when ${visibleDocuments(scope, PASSAGE_COLUMNS)}${stems ? sql` and (${sql.join(stems.map(headStarts), sql` or `)})` : sql``} then c.tsv @@ ${tsquery(retrieval)} else false end
    order by ${recency}
    limit ${sql.lit(limit)}`;
  return withDocuments(scope, kept, sql`kept.doc_updated_at desc, kept.document_id desc, kept.idx desc`);
}

/** A passage whose title or heading holds one of `words` (the index of migration 0009). */
function headMatches(words: string[]): RawBuilder<unknown> {
  return sql`to_tsvector('english', c.head) @@ ${tsquery([[words]])}`;
}

/**
 * Every match in scope ordered by how many head stems its title and heading hold, then recency; with
 * `headWords`, only the matches whose title or heading holds one of them (PostgreSQL may start from
 * either index, whichever it expects to find fewer passages in).
 */
function query(scope: SearchScope, retrieval: RetrievalQuery, limit: number, stems: string[], headWords?: string[]) {
  const kept = sql`
    select c.org_id, c.document_id, c.idx, c.doc_updated_at, ${inHead(stems)} as in_head
    from document_chunks c
    where c.tsv @@ ${tsquery(retrieval)} and ${visibleDocuments(scope, PASSAGE_COLUMNS)}${headWords ? sql` and ${headMatches(headWords)}` : sql``}
    order by in_head desc, c.doc_updated_at desc, c.document_id desc, c.idx desc
    limit ${limit}`;
  return withDocuments(scope, kept, sql`kept.in_head desc, kept.doc_updated_at desc, kept.document_id desc, kept.idx desc`);
}

/**
 * Memory for the bitmap of a question's matches. Past PostgreSQL's default work_mem (4 MB, ~50,000
 * pages of matches) the bitmap turns lossy: it keeps whole pages, and every passage on them is
 * rechecked against the question, which reads its tsvector. At 100,000 documents (~65,000 matches
 * of the W3 question) that was 1.06 s against 0.41 s exact. 32 MB stays exact to ~400,000 pages;
 * it is the most one search takes, for the length of that one query.
 */
const SEARCH_WORK_MEM = '32MB';

export function tsvectorIndex(db: Kysely<Database>): DocumentIndex {
  return {
    async search(scope, retrieval, limit, { headWords = retrieval.flat(2), common = false } = {}): Promise<SearchHit[]> {
      if (retrieval.flat(2).length === 0) return [];
      const stems = headStems(headWords);
      const run = (q: ReturnType<typeof query>) =>
        db.transaction().execute(async (trx) => {
          await sql.raw(`set local work_mem = '${SEARCH_WORK_MEM}'`).execute(trx);
          return (await q.execute(trx)).rows;
        });
      if (recentFirst(scope, limit, stems, common)) {
        // 1. Title/heading matches are plenty among the newest passages: the newest of them.
        const newest = await recentQuery(scope, retrieval, limit, stems).execute(db);
        if (newest.rows.length === limit) return newest.rows.map(toHit);
        // 2. Else the title/heading matches of the whole corpus, best first, then the newest of the
        // other matches, which the newest passages hold when the matches are common: nearly what the
        // full query gives (see the top), without visiting every match. Too few of both: the full query.
        const [head, recent] = await Promise.all([run(query(scope, retrieval, limit, stems, headWords)), recentQuery(scope, retrieval, limit, null).execute(db)]);
        if (head.length === limit || recent.rows.length === limit) return headFirst(head.map(toHit), recent.rows.map(toHit), limit);
      }
      return (await run(query(scope, retrieval, limit, stems))).map(toHit);
    },
    async frequencies(scope, groups, cap) {
      return Promise.all(
        groups.map(async (words) => {
          const { rows } = await sql<{ n: number }>`
            select count(*) as n from (
              select 1 from document_chunks c
              where c.tsv @@ ${tsquery([[words]])} and ${visibleDocuments(scope, PASSAGE_COLUMNS)}
              limit ${cap}
            ) m`.execute(db);
          return Number(rows[0]?.n ?? 0);
        }),
      );
    },
    async explain(scope, retrieval, limit, { headWords = retrieval.flat(2), common = false } = {}) {
      const words = retrieval.flat(2).length ? retrieval : [[['x']]];
      const stems = headStems(headWords);
      const compiled = (recentFirst(scope, limit, stems, common) ? recentQuery(scope, words, limit, stems) : query(scope, words, limit, stems)).compile(db);
      const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain ${compiled.sql}` });
      return rows.map((r) => r['QUERY PLAN']);
    },
  };
}
