// The access rule for documents (domain.md: org-visible + the caller's own teams'), plus the
// optional sources/document_ids filters, as one SQL condition over `documents d`. Shared by both
// engines so the rule is written once. It also reads `document_totals d` (same columns; team_id
// '' for org-visible), for scopes without document_ids.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { SearchScope } from './document-index.ts';

function list(values: string[]): RawBuilder<unknown> {
  return sql.join(values.map((v) => sql`${v}`));
}

export function visibleDocuments(scope: SearchScope): RawBuilder<SqlBool> {
  const parts: RawBuilder<unknown>[] = [sql`d.org_id = ${scope.orgId}`];
  parts.push(
    scope.teamIds.length > 0
      ? sql`(d.visibility = 'org' or (d.visibility = 'team' and d.team_id in (${list(scope.teamIds)})))`
      : sql`d.visibility = 'org'`,
  );
  if (scope.sources?.length) parts.push(sql`d.source in (${list(scope.sources)})`);
  if (scope.documentIds?.length) parts.push(sql`d.id in (${list(scope.documentIds)})`);
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}
