// PostgreSQL: an organization's passages in recency order (the document's updated_at, as copied by
// 0007), so a question of common words reads the newest passages one by one and stops at the first
// `limit` that match (tsvector-index.ts, the recent-first path) instead of visiting every match
// through the GIN index, whose bitmap has no order to stop early in. SQLite needs none: FTS5
// streams its matches newest first.
//
// A plain CREATE INDEX (migrations run in a transaction): writers to document_chunks wait while it
// is built, ~1 s per 100,000 passages.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index document_chunks_recency on document_chunks (org_id, doc_updated_at desc, document_id desc, idx desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index if exists document_chunks_recency`.execute(db);
}
