// The access rule for documents (domain.md: org-visible + the caller's own teams'), plus the
// optional sources/document_ids filters, as one SQL condition over `documents d`. Shared by both
// engines so the rule is written once. It also reads `document_totals d` (same columns; team_id
// '' for org-visible), for scopes without document_ids, and PostgreSQL passages `c`, which carry
// their document's columns (migration 0007: PASSAGE_COLUMNS).
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { SearchScope } from './document-index.ts';

function list(values: string[]): RawBuilder<unknown> {
  return sql.join(values.map((v) => sql`${v}`));
}

/** Where the rule finds a document's organization, visibility, team, source and id. */
export type DocumentColumns = { orgId: string; visibility: string; teamId: string; source: string; id: string };

const DOCUMENT_COLUMNS: DocumentColumns = { orgId: 'd.org_id', visibility: 'd.visibility', teamId: 'd.team_id', source: 'd.source', id: 'd.id' };
/** The same columns as copied onto a PostgreSQL passage `c`. */
export const PASSAGE_COLUMNS: DocumentColumns = { orgId: 'c.org_id', visibility: 'c.doc_visibility', teamId: 'c.doc_team_id', source: 'c.doc_source', id: 'c.document_id' };

export function visibleDocuments(scope: SearchScope, columns: DocumentColumns = DOCUMENT_COLUMNS): RawBuilder<SqlBool> {
  const col = (name: keyof DocumentColumns) => sql.ref(columns[name]);
  const parts: RawBuilder<unknown>[] = [sql`${col('orgId')} = ${scope.orgId}`];
  parts.push(
    scope.teamIds.length > 0
      ? sql`(${col('visibility')} = 'org' or (${col('visibility')} = 'team' and ${col('teamId')} in (${list(scope.teamIds)})))`
      : sql`${col('visibility')} = 'org'`,
  );
  if (scope.sources?.length) parts.push(sql`${col('source')} in (${list(scope.sources)})`);
  if (scope.documentIds?.length) parts.push(sql`${col('id')} in (${list(scope.documentIds)})`);
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}
