// SQLite FTS5: MATCH on the contentless index, ranked by bm25 with column weights
// (title 4, heading 3, body 1), joined to the chunk and its document for the visibility filter.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { DocumentIndex, SearchHit, SearchScope } from './document-index.ts';
import { fts5Query } from './query-terms.ts';
import { visibleDocuments } from './scope-sql.ts';
import { toHit, type HitRow } from './hit-row.ts';


/**
 * CROSS JOIN fixes SQLite's join order (the FTS5 matches drive; each is looked up by rowid), so the
 * planner never scans all of an organization's chunks to meet the matches.
 * The best `inner` matches by bm25 are ranked inside FTS5 (its ORDER BY rank LIMIT path), then
 * joined to their chunk and document for the visibility filter. `inner` null ranks every match:
 * needed only when the first pass filtered too many of the best matches away.
 */
function query(scope: SearchScope, q: string, limit: number, inner: number | null) {
  return sql<HitRow>`
    select c.document_id, c.idx, c.heading, c.text, d.title, d.url, d.source, d.last_modified, f.rank
    from (
      select rowid, rank
      from document_chunks_fts
      where document_chunks_fts match ${q} and rank match 'bm25(4.0, 3.0, 1.0)'
      order by rank
      ${inner === null ? sql`` : sql`limit ${inner}`}
    ) f
    cross join document_chunks c on c.id = f.rowid
    cross join documents d on d.org_id = c.org_id and d.id = c.document_id
    where c.org_id = ${scope.orgId} and ${visibleDocuments(scope)}
    order by f.rank, c.document_id, c.idx
    limit ${limit}`;
}

/** How many of the best matches the first pass looks at, per result wanted. */
const OVERFETCH = 20;

export function fts5Index(db: Kysely<Database>): DocumentIndex {
  return {
    async search(scope, retrieval, limit): Promise<SearchHit[]> {
      const q = fts5Query(retrieval);
      if (q === '') return [];
      const inner = Math.max(500, limit * OVERFETCH);
      let { rows } = await query(scope, q, limit, inner).execute(db);
      if (rows.length < limit) {
        // The first pass saw `inner` matches at most; if there were more, some visible ones may
        // rank below them (another team's or organization's documents took the top places).
        const { rows: seen } = await sql<{ n: number }>`select count(*) as n from (select 1 from document_chunks_fts where document_chunks_fts match ${q} limit ${inner + 1}) m`.execute(db);
        if (Number(seen[0]?.n ?? 0) > inner) rows = (await query(scope, q, limit, null).execute(db)).rows;
      }
      return rows.map((r) => toHit(r, -Number(r.rank))); // bm25 is lower-is-better
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
      const compiled = query(scope, fts5Query(retrieval) || '"x"', limit, Math.max(500, limit * OVERFETCH)).compile(db);
      const { rows } = await db.executeQuery<{ detail: string }>({ ...compiled, sql: `explain query plan ${compiled.sql}` });
      return rows.map((r) => r.detail);
    },
  };
}
