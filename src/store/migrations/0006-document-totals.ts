// Documents and passages per organization, visibility, team and source, kept by triggers on
// `documents`. ask_documents reads a caller's totals on every question (for the word weights, the
// reply's documents_searched, and to tell the reused word counts that the index changed); counting
// them from `documents` read every visible document's index entry, ~4 ms at 10,000 documents and
// ~40 ms at 100,000. Here it is a handful of rows: one per team and source at most.
// Triggers, not the writer, keep the totals, so every path that changes documents (replace,
// delete, an organization's cascade) keeps them right. team_id is '' for org-visible documents.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  // Another instance may still be writing documents during a rolling deploy: hold them off until
  // the totals are filled and the trigger exists (the migration is one transaction), or a document
  // written in between would never be counted. SQLite's migration holds the write lock already.
  if (isPostgres(db)) await sql`lock table documents in share row exclusive mode`.execute(db);
  await db.schema
    .createTable('document_totals')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('documents', 'bigint', (c) => c.notNull())
    .addColumn('chunks', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_totals_pk', ['org_id', 'visibility', 'team_id', 'source'])
    .execute();
  await sql`insert into document_totals (org_id, visibility, team_id, source, documents, chunks)
    select org_id, visibility, coalesce(team_id, ''), source, count(*), sum(chunk_count) from documents
    group by org_id, visibility, coalesce(team_id, ''), source`.execute(db);

  const add = (row: 'new') => sql.raw(`insert into document_totals (org_id, visibility, team_id, source, documents, chunks)
      values (${row}.org_id, ${row}.visibility, coalesce(${row}.team_id, ''), ${row}.source, 1, ${row}.chunk_count)
      on conflict (org_id, visibility, team_id, source) do update
      set documents = document_totals.documents + 1, chunks = document_totals.chunks + excluded.chunks;`);
  const remove = (row: 'old') => sql.raw(`update document_totals set documents = documents - 1, chunks = chunks - ${row}.chunk_count
      where org_id = ${row}.org_id and visibility = ${row}.visibility and team_id = coalesce(${row}.team_id, '') and source = ${row}.source;`);

  if (isPostgres(db)) {
    await sql`create function document_totals_follow() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then ${remove('old')} end if;
        if tg_op in ('INSERT', 'UPDATE') then ${add('new')} end if;
        return null;
      end
    $$`.execute(db);
    await sql`create trigger document_totals_follow after insert or delete or update of org_id, visibility, team_id, source, chunk_count on documents
      for each row execute function document_totals_follow()`.execute(db);
    return;
  }
  await sql`create trigger document_totals_insert after insert on documents begin ${add('new')} end`.execute(db);
  await sql`create trigger document_totals_delete after delete on documents begin ${remove('old')} end`.execute(db);
  await sql`create trigger document_totals_update after update of org_id, visibility, team_id, source, chunk_count on documents begin
      ${remove('old')} ${add('new')}
    end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists document_totals_follow on documents`.execute(db);
    await sql`drop function if exists document_totals_follow()`.execute(db);
  } else {
    for (const name of ['document_totals_insert', 'document_totals_delete', 'document_totals_update']) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await db.schema.dropTable('document_totals').ifExists().execute();
}
