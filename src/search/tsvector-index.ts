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
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { DocumentIndex, SearchHit, SearchScope } from './document-index.ts';
import { PASSAGE_COLUMNS, visibleDocuments } from './scope-sql.ts';
import { toHit, type HitRow } from './hit-row.ts';
import { stem } from './query-terms.ts';
import type { RetrievalQuery } from './retrieval-plan.ts';

/** Clauses OR-ed (||), groups of a clause AND-ed (&&), alternatives OR-ed; a stop word gives an empty, ignored operand. */
function tsquery(retrieval: RetrievalQuery): RawBuilder<unknown> {
  // PostgreSQL text cannot hold NUL: a word with one would fail the whole query.
  const group = (g: string[]) => sql`(${sql.join(g.map((w) => sql`plainto_tsquery('english', ${w.replaceAll('\0', '')})`), sql` || `)})`;
  const clauses = retrieval.map((c) => c.filter((g) => g.length > 0)).filter((c) => c.length > 0);
  return sql`(${sql.join(clauses.map((c) => sql`(${sql.join(c.map(group), sql` && `)})`), sql` || `)})`;
}

/**
 * How many of the question's words the title and heading hold, from the words' stems as substrings
 * (the tsvector's weights would say it exactly, but reading them means reading the tsvector). Only
 * the order of candidates depends on it; the reranker checks words exactly.
 */
function inHead(words: string[]): RawBuilder<number> {
  const stems = [...new Set(words.map((w) => stem(w.replaceAll('\0', ''))).filter((s) => s.length > 0))];
  if (stems.length === 0) return sql<number>`0`;
  const like = (s: string) => sql`(c.head like ${`%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`})::int`;
  return sql<number>`(${sql.join(stems.map(like), sql` + `)})`;
}

function query(scope: SearchScope, retrieval: RetrievalQuery, limit: number, headWords: string[]) {
  const match = tsquery(retrieval);
  return sql<HitRow>`
    select c.document_id, c.idx, c.heading, c.text, d.title, d.url, d.source, d.last_modified
    from (
      select c.org_id, c.document_id, c.idx, c.doc_updated_at, ${inHead(headWords)} as in_head
      from document_chunks c
      where c.tsv @@ ${match} and ${visibleDocuments(scope, PASSAGE_COLUMNS)}
      order by in_head desc, c.doc_updated_at desc, c.document_id desc, c.idx desc
      limit ${limit}
    ) kept
    join document_chunks c on c.org_id = kept.org_id and c.document_id = kept.document_id and c.idx = kept.idx
    join documents d on d.org_id = kept.org_id and d.id = kept.document_id
    where ${visibleDocuments(scope)}
    order by kept.in_head desc, kept.doc_updated_at desc, kept.document_id desc, kept.idx desc`;
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
    async search(scope, retrieval, limit, headWords = retrieval.flat(2)): Promise<SearchHit[]> {
      if (retrieval.flat(2).length === 0) return [];
      const { rows } = await db.transaction().execute(async (trx) => {
        await sql.raw(`set local work_mem = '${SEARCH_WORK_MEM}'`).execute(trx);
        return query(scope, retrieval, limit, headWords).execute(trx);
      });
      return rows.map(toHit);
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
    async explain(scope, retrieval, limit) {
      const words = retrieval.flat(2).length ? retrieval : [[['x']]];
      const compiled = query(scope, words, limit, words.flat(2)).compile(db);
      const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain ${compiled.sql}` });
      return rows.map((r) => r['QUERY PLAN']);
    },
  };
}
