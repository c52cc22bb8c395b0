// SQLite FTS5 as a filter: MATCH on the contentless index selects the candidate passages, joined to
// the chunk and its document for the visibility filter; the reranker (answer.ts) ranks them.
//
// No bm25 here: FTS5 computes bm25's word rarity by reading every query word's whole posting list
// on each query, and scores every match, so a question of common words cost ~50 ms on 200,000
// passages and ~0.5 s on 2,000,000. Instead the engine hands over a bounded set: the newest
// passages whose title or heading holds a question word, and when they are fewer than asked for,
// the newest of the rest. Both stream from the index in descending rowid order (rowids grow with
// indexing, so re-indexed documents come first) and stop after `limit` visible ones: the cost
// follows the matches passed over, which is small unless most matches are invisible to the caller
// (the index spans every organization) or fewer than `limit` match at all; a column-filtered query
// also reads its words' posting lists.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { DocumentIndex, SearchHit, SearchScope } from './document-index.ts';
import { fts5Query } from './query-terms.ts';
import { visibleDocuments } from './scope-sql.ts';
import { headFirst, toHit, type HitRow } from './hit-row.ts';
import type { RetrievalQuery } from './retrieval-plan.ts';

/**
 * CROSS JOIN fixes SQLite's join order: the FTS5 matches drive, newest first (FTS5 delivers
 * `order by rowid desc` itself, so nothing is sorted), and each is looked up by rowid, so the scan
 * stops at the `limit`-th visible passage.
 */
function query(scope: SearchScope, q: string, limit: number) {
  return sql<HitRow>`
    select c.document_id, c.idx, c.heading, c.text, d.title, d.url, d.source, d.last_modified
    from document_chunks_fts f
    cross join document_chunks c on c.id = f.rowid
    cross join documents d on d.org_id = c.org_id and d.id = c.document_id
    where document_chunks_fts match ${q} and c.org_id = ${scope.orgId} and ${visibleDocuments(scope)}
    order by f.rowid desc
    limit ${limit}`;
}

/** The retrieval query restricted to passages with one of `words` in the title or heading. */
function inHead(retrieval: RetrievalQuery, words: string[]): string {
  return `({title heading} : (${fts5Query([...new Set(words)])})) AND (${fts5Query(retrieval)})`;
}

export function fts5Index(db: Kysely<Database>): DocumentIndex {
  return {
    async search(scope, retrieval, limit, { headWords = retrieval.flat(2) } = {}): Promise<SearchHit[]> {
      if (fts5Query(retrieval) === '') return [];
      const head = fts5Query(headWords) === '' ? [] : (await query(scope, inHead(retrieval, headWords), limit).execute(db)).rows.map(toHit);
      if (head.length === limit) return head;
      const all = (await query(scope, fts5Query(retrieval), limit).execute(db)).rows.map(toHit);
      return headFirst(head, all, limit);
    },
    async frequencies(scope, groups, cap) {
      const out: number[] = [];
      for (const words of groups) {
        const { rows } = await sql<{ n: number }>`
          select count(*) as n from (
            select 1 from document_chunks_fts f
            cross join document_chunks c on c.id = f.rowid
            cross join documents d on d.org_id = c.org_id and d.id = c.document_id
            where document_chunks_fts match ${fts5Query([[words]])} and c.org_id = ${scope.orgId} and ${visibleDocuments(scope)}
            limit ${cap}
          ) m`.execute(db);
        out.push(Number(rows[0]?.n ?? 0));
      }
      return out;
    },
    async explain(scope, retrieval, limit) {
      const compiled = query(scope, fts5Query(retrieval) || '"x"', limit).compile(db);
      const { rows } = await db.executeQuery<{ detail: string }>({ ...compiled, sql: `explain query plan ${compiled.sql}` });
      return rows.map((r) => r.detail);
    },
  };
}
