// Documents and their chunks, with the full-text index behind `ask_documents`.
// The tables are portable; the full-text index is not: SQLite gets an FTS5 table kept in step by
// triggers, PostgreSQL a tsvector column filled by a trigger and a GIN index. The dialect is
// decided once, here at the top, from the adapter Kysely runs on (design: architecture.md "search").
// Both dialects index the same three fields with the same relative weights: the document title,
// the chunk's heading and the chunk's text (title and heading weigh more than body text).
import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

type FullText = 'fts5' | 'tsvector';

function fullTextOf(db: Kysely<unknown>): FullText {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'tsvector' : 'fts5';
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const fullText = fullTextOf(db);

  await db.schema
    .createTable('documents')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull()) // google_drive | onedrive | highspot | upload
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('last_modified', 'bigint', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull()) // org | team
    .addColumn('team_id', 'text')
    .addColumn('owner_id', 'text')
    .addColumn('word_count', 'integer', (c) => c.notNull())
    .addColumn('chunk_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('documents_pk', ['org_id', 'id'])
    .execute();
  // The visibility filter (org-visible + the caller's teams) and the sources filter. chunk_count
  // rides along so counting the caller's documents and passages (every ask) reads the index only.
  await db.schema.createIndex('documents_visibility').on('documents').columns(['org_id', 'visibility', 'team_id', 'id', 'chunk_count']).execute();
  await db.schema.createIndex('documents_source').on('documents').columns(['org_id', 'source', 'id']).execute();

  let chunks: CreateTableBuilder<'document_chunks', string> = db.schema.createTable('document_chunks');
  // SQLite: an INTEGER PRIMARY KEY is the rowid the FTS5 index points at (a rowid that is not
  // declared may change on VACUUM). PostgreSQL needs no surrogate key: the tsvector is a column.
  if (fullText === 'fts5') chunks = chunks.addColumn('id', 'integer', (c) => c.primaryKey());
  chunks = chunks
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('heading', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addForeignKeyConstraint('document_chunks_document', ['org_id', 'document_id'], 'documents', ['org_id', 'id'], (fk) => fk.onDelete('cascade'));
  if (fullText === 'tsvector') chunks = chunks.addColumn('tsv', sql`tsvector`).addPrimaryKeyConstraint('document_chunks_pk', ['org_id', 'document_id', 'idx']);
  await chunks.execute();

  if (fullText === 'fts5') {
    await db.schema.createIndex('document_chunks_key').on('document_chunks').columns(['org_id', 'document_id', 'idx']).unique().execute();
    // Contentless (the text lives once, in document_chunks) with deletes by rowid (SQLite ≥ 3.43).
    // porter + unicode61: English stemming, case and diacritics folded.
    await sql`create virtual table document_chunks_fts using fts5(
      title, heading, body,
      content = '', contentless_delete = 1,
      tokenize = 'porter unicode61 remove_diacritics 2'
    )`.execute(db);
    await sql`create trigger document_chunks_fts_insert after insert on document_chunks begin
      insert into document_chunks_fts (rowid, title, heading, body)
      values (new.id, (select d.title from documents d where d.org_id = new.org_id and d.id = new.document_id), new.heading, new.text);
    end`.execute(db);
    await sql`create trigger document_chunks_fts_delete after delete on document_chunks begin
      delete from document_chunks_fts where rowid = old.id;
    end`.execute(db);
    return;
  }

  // PostgreSQL: the 'english' configuration (Snowball stemming, stop words). Weights: heading A,
  // title B, body D; the ranking query gives them 1.0, 0.6 and 0.3.
  await sql`create function document_chunks_tsv() returns trigger language plpgsql as $$
    begin
      new.tsv :=
        setweight(to_tsvector('english', coalesce((select d.title from documents d where d.org_id = new.org_id and d.id = new.document_id), '')), 'B') ||
        setweight(to_tsvector('english', new.heading), 'A') ||
        setweight(to_tsvector('english', new.text), 'D');
      return new;
    end
  $$`.execute(db);
  await sql`create trigger document_chunks_tsv before insert or update of heading, text on document_chunks
    for each row execute function document_chunks_tsv()`.execute(db);
  await sql`create index document_chunks_tsv_gin on document_chunks using gin (tsv)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (fullTextOf(db) === 'fts5') {
    await sql`drop table if exists document_chunks_fts`.execute(db);
  }
  await db.schema.dropTable('document_chunks').ifExists().execute();
  await db.schema.dropTable('documents').ifExists().execute();
  if (fullTextOf(db) === 'tsvector') await sql`drop function if exists document_chunks_tsv()`.execute(db);
}
