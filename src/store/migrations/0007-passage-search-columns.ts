// PostgreSQL: what the full-text query filters and orders passages by, kept on each passage, so
// the query over the matches reads document_chunks alone. A GIN bitmap has no order to stop early
// in, so every match is visited; joining each to its document (visibility, team, source, recency,
// title) was ~2.4 µs a match, 40% of a common question on 10,000 documents (~6,400 matches). The
// documents of the 30 passages kept are still read, and the access rule is checked on them again.
//
// Triggers keep the copies: a passage's are read from its document when it is written (the tsv
// trigger already read the title there), and a change to a document's title, visibility, team,
// source or recency rewrites its passages' (and their tsvector, which holds the title). SQLite
// needs none of it: FTS5 streams the newest matches and joins only the ones it keeps.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  // A rolling deploy's older instances may still write documents: hold them off until the copies
  // are filled and the triggers keep them (the migration is one transaction).
  await sql`lock table documents, document_chunks in share row exclusive mode`.execute(db);
  await sql`alter table document_chunks
    add column doc_visibility text, add column doc_team_id text, add column doc_source text,
    add column doc_updated_at bigint, add column head text`.execute(db);
  // Not an update of heading or text: the tsvector trigger does not fire for the fill.
  await sql`update document_chunks c
    set doc_visibility = d.visibility, doc_team_id = d.team_id, doc_source = d.source, doc_updated_at = d.updated_at,
      head = lower(c.heading || ' ' || d.title)
    from documents d where d.org_id = c.org_id and d.id = c.document_id`.execute(db);
  await sql`alter table document_chunks
    alter column doc_visibility set not null, alter column doc_source set not null,
    alter column doc_updated_at set not null, alter column head set not null`.execute(db);

  // The passage trigger of 0005, now also copying the document's columns (same weights).
  await sql`create or replace function document_chunks_tsv() returns trigger language plpgsql as $$
    declare
      doc record;
    begin
      select d.title, d.visibility, d.team_id, d.source, d.updated_at into doc
        from documents d where d.org_id = new.org_id and d.id = new.document_id;
      new.tsv :=
        setweight(to_tsvector('english', coalesce(doc.title, '')), 'B') ||
        setweight(to_tsvector('english', new.heading), 'A') ||
        setweight(to_tsvector('english', new.text), 'D');
      new.doc_visibility := doc.visibility;
      new.doc_team_id := doc.team_id;
      new.doc_source := doc.source;
      new.doc_updated_at := doc.updated_at;
      new.head := lower(new.heading || ' ' || coalesce(doc.title, ''));
      return new;
    end
  $$`.execute(db);
  // Rewriting heading with itself runs the passage trigger above, which reads the updated document.
  await sql`create function documents_follow_to_passages() returns trigger language plpgsql as $$
    begin
      update document_chunks set heading = heading where org_id = new.org_id and document_id = new.id;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger documents_follow_to_passages after update of title, visibility, team_id, source, updated_at on documents
    for each row execute function documents_follow_to_passages()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger if exists documents_follow_to_passages on documents`.execute(db);
  await sql`drop function if exists documents_follow_to_passages()`.execute(db);
  await sql`create or replace function document_chunks_tsv() returns trigger language plpgsql as $$
    begin
      new.tsv :=
        setweight(to_tsvector('english', coalesce((select d.title from documents d where d.org_id = new.org_id and d.id = new.document_id), '')), 'B') ||
        setweight(to_tsvector('english', new.heading), 'A') ||
        setweight(to_tsvector('english', new.text), 'D');
      return new;
    end
  $$`.execute(db);
  await sql`alter table document_chunks drop column doc_visibility, drop column doc_team_id, drop column doc_source, drop column doc_updated_at, drop column head`.execute(db);
}
