// PostgreSQL: planner statistics for what 0007–0009 added to document_chunks. Columns added by
// ALTER TABLE and the expression index of 0009 have none until the table is analyzed, and
// autovacuum analyzes only after a tenth of the rows change: on an upgraded database the planner
// would guess the selectivity of the passages' copied visibility and recency columns and of the
// title/heading words for a long time (it could, say, combine both text indexes where one is
// enough). One ANALYZE samples the table (~30,000 rows, seconds on millions of passages). SQLite's
// FTS5 needs none.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`analyze document_chunks`.execute(db);
}

export async function down(): Promise<void> {
  // Statistics are not schema: nothing to undo.
}
