// PostgreSQL full text: the GIN-indexed `tsv` column (heading A, title B, body D) matched against a
// tsquery built from plainto_tsquery per word (bound parameters; never a syntax error), ranked by ts_rank_cd with weights
// {D 0.3, C 0.2, B 0.6, A 1.0} and length normalization 1 (divide by 1 + log(length)).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { DocumentIndex, SearchHit, SearchScope } from './document-index.ts';
import { visibleDocuments } from './scope-sql.ts';
import { toHit, type HitRow } from './hit-row.ts';
import type { RetrievalQuery } from './retrieval-plan.ts';


/** Clauses OR-ed (||), groups of a clause AND-ed (&&), alternatives OR-ed; a stop word gives an empty, ignored operand. */
function tsquery(retrieval: RetrievalQuery): RawBuilder<unknown> {
  const group = (g: string[]) => sql`(${sql.join(g.map((w) => sql`plainto_tsquery('english', ${w})`), sql` || `)})`;
  const clauses = retrieval.map((c) => c.filter((g) => g.length > 0)).filter((c) => c.length > 0);
  return sql`(${sql.join(clauses.map((c) => sql`(${sql.join(c.map(group), sql` && `)})`), sql` || `)})`;
}

function query(scope: SearchScope, retrieval: RetrievalQuery, limit: number) {
  const q = tsquery(retrieval);
  return sql<HitRow>`
    select c.document_id, c.idx, c.heading, c.text, d.title, d.url, d.source, d.last_modified,
      ts_rank_cd('{0.3, 0.2, 0.6, 1.0}'::float4[], c.tsv, ${q}, 1) as rank
    from document_chunks c
    join documents d on d.org_id = c.org_id and d.id = c.document_id
    where c.tsv @@ ${q} and c.org_id = ${scope.orgId} and ${visibleDocuments(scope)}
    order by rank desc, c.document_id, c.idx
    limit ${limit}`;
}

export function tsvectorIndex(db: Kysely<Database>): DocumentIndex {
  return {
    async search(scope, retrieval, limit): Promise<SearchHit[]> {
      if (retrieval.flat(2).length === 0) return [];
      const { rows } = await query(scope, retrieval, limit).execute(db);
      return rows.map((r) => toHit(r, Number(r.rank)));
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
      const compiled = query(scope, retrieval.flat(2).length ? retrieval : [[['x']]], limit).compile(db);
      const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain ${compiled.sql}` });
      return rows.map((r) => r['QUERY PLAN']);
    },
  };
}
