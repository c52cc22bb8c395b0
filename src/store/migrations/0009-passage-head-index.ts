// PostgreSQL: the words of each passage's title and heading (the lowered `head` of 0007), indexed,
// so a question of common words whose title/heading matches are few among the newest passages
// finds those matches across the whole corpus without visiting every body match
// (tsvector-index.ts, the recent-first path's second step). SQLite needs none: FTS5 filters on its
// title and heading columns.
//
// A plain CREATE INDEX (migrations run in a transaction): writers to document_chunks wait while it
// is built, a few seconds per 100,000 passages.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index document_chunks_head_gin on document_chunks using gin (to_tsvector('english', head))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index if exists document_chunks_head_gin`.execute(db);
}
