// PostgreSQL full text as a filter: the GIN-indexed `tsv` column (heading A, title B, body D)
// matched against a tsquery built from plainto_tsquery per word (bound parameters; never a syntax
// error), joined to the document for the visibility filter; the reranker (answer.ts) ranks.
//
// No ts_rank_cd here: it reads every match's whole tsvector (~19 µs a match), ~300 ms for a
// question of common words on 200,000 passages. The engine hands over a bounded set instead, as
// FTS5 does: the most recently indexed passages with a question word in their title or heading,
// then the most recently indexed of the rest. Unlike FTS5, PostgreSQL still visits every match
// (a GIN bitmap has no order to stop early in), so the cost grows with the matches, ~10 µs each.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { DocumentIndex, SearchHit, SearchScope } from './document-index.ts';
import { visibleDocuments } from './scope-sql.ts';
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
  const like = (s: string) => sql`(h.head like ${`%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`})::int`;
  return sql<number>`(${sql.join(stems.map(like), sql` + `)})`;
}

function query(scope: SearchScope, retrieval: RetrievalQuery, limit: number, headWords: string[]) {
  const match = tsquery(retrieval);
  return sql<HitRow>`
    select c.document_id, c.idx, c.heading, c.text, d.title, d.url, d.source, d.last_modified
    from document_chunks c
    join documents d on d.org_id = c.org_id and d.id = c.document_id
    -- lowered once per match (offset 0 keeps PostgreSQL from inlining it into every comparison:
    -- ~7 µs a match with six words, a third of the query on a common question)
    cross join lateral (select lower(c.heading || ' ' || d.title) as head offset 0) h
    where c.tsv @@ ${match} and c.org_id = ${scope.orgId} and ${visibleDocuments(scope)}
    order by ${inHead(headWords)} desc, d.updated_at desc, c.document_id desc, c.idx desc
    limit ${limit}`;
}

export function tsvectorIndex(db: Kysely<Database>): DocumentIndex {
  return {
    async search(scope, retrieval, limit, headWords = retrieval.flat(2)): Promise<SearchHit[]> {
      if (retrieval.flat(2).length === 0) return [];
      const { rows } = await query(scope, retrieval, limit, headWords).execute(db);
      return rows.map(toHit);
    },
    async frequencies(scope, groups, cap) {
      return Promise.all(
        groups.map(async (words) => {
          const { rows } = await sql<{ n: number }>`
            select count(*) as n from (
              select 1 from document_chunks c
              join documents d on d.org_id = c.org_id and d.id = c.document_id
              where c.tsv @@ ${tsquery([[words]])} and c.org_id = ${scope.orgId} and ${visibleDocuments(scope)}
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
