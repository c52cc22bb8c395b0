// A trigram index over the text list_meetings' `q` searches: each meeting's title and each
// participant's name, email and company. Without it a `q` tested every meeting of the window, its
// title and its participants: a text that matches nothing took ~0.45 s on SQLite and ~0.65 s on
// PostgreSQL over a year of 100,000 meetings (an idle AMD EPYC machine). The index only proposes candidates: the list still
// tests each one with the same LIKE as before (meeting-filters.ts), so what a `q` finds is
// unchanged, and an index that proposes too much costs time, never a wrong answer.
//
// Each text is indexed by its trigrams, case folded, so any `q` of three characters or more has
// candidates that include every meeting it can match (meeting-text.ts, which decides when to ask).
//
// SQLite: an FTS5 table with the trigram tokenizer, contentless (the text lives once, in meetings
// and participants) with deletes by rowid, and only which rows hold a trigram (detail = none: a
// query asks for all of `q`'s trigrams, and the LIKE checks their order). Its rowids are the
// organization's range (meeting_text_orgs) plus a row of meeting_text_rows, INTEGER PRIMARY KEYs
// that a VACUUM keeps (meetings' and participants' own rowids are not declared and may change), so
// an organization's search reads its own rows only, never another's. Triggers keep all three, so
// every writer (import, seed, a test's insert) keeps the index right; a title row has no
// participant id. Writers upsert (INSERT … ON CONFLICT DO UPDATE): an INSERT OR REPLACE would
// delete without firing the delete triggers and leave the old rows' entries behind.
//
// PostgreSQL: a GIN index on each table over an expression, meeting_text_keys(org_id, fields…): the
// hashes of the organization with each trigram of each lowercased field. With the organization
// in every key, an organization's search reads its own postings (and GIN's pending list of recent
// inserts, shared until merged), never another's. Nothing to keep: the index follows the rows. The function is IMMUTABLE, as an index expression must be:
// lower() and hashtext() are.
//
// Plain CREATE INDEX and one pass over every participant (migrations run in one transaction):
// writers wait while it is built (README "Upgrading").
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The width of each organization's range of meeting_text rowids (2^40 rows; 2^23 organizations fit
 * in a rowid). Stored rowids are built from it: it never changes (meeting-text.ts reads it too).
 */
export const ORG_SPAN = '1099511627776';

/** A participant's indexed text: its fields on separate lines (a `q` never spans two: the LIKE tests each field). */
const participantText = (row: 'new' | 'p') => `${row}.name || char(10) || coalesce(${row}.email, '') || char(10) || coalesce(${row}.company, '')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    // PL/pgSQL: ~13 µs per participant row, where the same as one SQL statement (unnest,
    // generate_series, array_agg) took ~50 µs, paid by every insert through the index. Duplicate
    // keys are left in: the GIN index stores each once.
    await sql`create function meeting_text_keys(org text, variadic fields text[]) returns int4[]
      language plpgsql immutable strict parallel safe as $$
        declare
          keys int4[] := '{}';
          scope text := org || chr(31);
          field text;
          i int;
        begin
          foreach field in array fields loop
            continue when field is null;
            field := lower(field);
            for i in 1 .. length(field) - 2 loop
              keys := keys || hashtext(scope || substr(field, i, 3));
            end loop;
          end loop;
          return keys;
        end
      $$`.execute(db);
    await sql`create index meetings_text on meetings using gin (meeting_text_keys(org_id, title))`.execute(db);
    await sql`create index participants_text on participants using gin (meeting_text_keys(org_id, name, email, company))`.execute(db);
    if ((await sql`select 1 from meetings limit 1`.execute(db)).rows.length > 0) await sql`analyze meetings, participants`.execute(db);
    return;
  }
  // Each row's meeting start rides along (as participants carry theirs, migration 0011): a probe
  // keeps to the list's window without reading the meetings.
  await sql`create table meeting_text_rows (id integer primary key, org_id text not null, meeting_id text not null, participant_id integer, start_at integer)`.execute(db);
  await sql`create index meeting_text_rows_key on meeting_text_rows (org_id, meeting_id, participant_id)`.execute(db);
  // One FTS5 table serves every organization; each has its own range of its rowids (a number per
  // organization, times 2^40, plus the row's id), and a search reads its organization's range only.
  await sql`create table meeting_text_orgs (id integer primary key, org_id text not null unique)`.execute(db);
  await sql`create virtual table meeting_text using fts5(body, content = '', contentless_delete = 1, detail = none, tokenize = 'trigram')`.execute(db);

  const base = (org: string) => `(select o.id * ${ORG_SPAN} from meeting_text_orgs o where o.org_id = ${org})`;
  // Not INSERT OR IGNORE: the statement that fires a trigger overrides its conflict clauses.
  const addOrg = `insert into meeting_text_orgs (org_id) select new.org_id where not exists (select 1 from meeting_text_orgs where org_id = new.org_id);`;
  const addTitle = sql.raw(`${addOrg}
      insert into meeting_text_rows (org_id, meeting_id, participant_id, start_at) values (new.org_id, new.id, null, new.start_at);
      insert into meeting_text (rowid, body) values (${base('new.org_id')} + last_insert_rowid(), new.title);`);
  const dropTitle = sql.raw(`delete from meeting_text where rowid in
        (select ${base('old.org_id')} + r.id from meeting_text_rows r where r.org_id = old.org_id and r.meeting_id = old.id and r.participant_id is null);
      delete from meeting_text_rows where org_id = old.org_id and meeting_id = old.id and participant_id is null;`);
  const handDown = sql.raw(`update meeting_text_rows set start_at = new.start_at where org_id = new.org_id and meeting_id = new.id;`);
  const addParticipant = sql.raw(`${addOrg}
      insert into meeting_text_rows (org_id, meeting_id, participant_id, start_at)
        values (new.org_id, new.meeting_id, new.id, (select m.start_at from meetings m where m.org_id = new.org_id and m.id = new.meeting_id));
      insert into meeting_text (rowid, body) values (${base('new.org_id')} + last_insert_rowid(), ${participantText('new')});`);
  const dropParticipant = sql.raw(`delete from meeting_text where rowid in
        (select ${base('old.org_id')} + r.id from meeting_text_rows r where r.org_id = old.org_id and r.meeting_id = old.meeting_id and r.participant_id = old.id);
      delete from meeting_text_rows where org_id = old.org_id and meeting_id = old.meeting_id and participant_id = old.id;`);

  // A meeting written after its participants hands them its start, as in 0011.
  await sql`create trigger meetings_text_insert after insert on meetings begin ${handDown} ${addTitle} end`.execute(db);
  // An upsert sets every column: only a changed text, start or key is written again.
  await sql`create trigger meetings_text_update after update of org_id, id, title on meetings
    when new.title is not old.title or new.org_id is not old.org_id or new.id is not old.id
    begin ${dropTitle} ${addTitle} end`.execute(db);
  await sql`create trigger meetings_text_new_start after update of start_at on meetings when new.start_at is not old.start_at begin ${handDown} end`.execute(db);
  await sql`create trigger meetings_text_delete after delete on meetings begin ${dropTitle} end`.execute(db);
  await sql`create trigger participants_text_insert after insert on participants begin ${addParticipant} end`.execute(db);
  await sql`create trigger participants_text_update after update of org_id, meeting_id, id, name, email, company on participants
    when new.name is not old.name or new.email is not old.email or new.company is not old.company
      or new.org_id is not old.org_id or new.meeting_id is not old.meeting_id or new.id is not old.id
    begin ${dropParticipant} ${addParticipant} end`.execute(db);
  await sql`create trigger participants_text_delete after delete on participants begin ${dropParticipant} end`.execute(db);

  // The rows there are: organizations, titles, then participants.
  await sql`insert into meeting_text_orgs (org_id) select org_id from meetings union select org_id from participants`.execute(db);
  await sql`insert into meeting_text_rows (org_id, meeting_id, participant_id, start_at) select org_id, id, null, start_at from meetings`.execute(db);
  await sql`insert into meeting_text_rows (org_id, meeting_id, participant_id, start_at)
    select p.org_id, p.meeting_id, p.id, (select m.start_at from meetings m where m.org_id = p.org_id and m.id = p.meeting_id) from participants p`.execute(db);
  await sql`insert into meeting_text (rowid, body)
    select o.id * ${sql.raw(ORG_SPAN)} + r.id, m.title from meeting_text_rows r join meeting_text_orgs o on o.org_id = r.org_id
    join meetings m on m.org_id = r.org_id and m.id = r.meeting_id where r.participant_id is null`.execute(db);
  await sql`insert into meeting_text (rowid, body)
    select o.id * ${sql.raw(ORG_SPAN)} + r.id, ${sql.raw(participantText('p'))} from meeting_text_rows r join meeting_text_orgs o on o.org_id = r.org_id
    join participants p on p.org_id = r.org_id and p.meeting_id = r.meeting_id and p.id = r.participant_id`.execute(db);
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length > 0) await sql`analyze meeting_text_rows`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists participants_text`.execute(db);
    await sql`drop index if exists meetings_text`.execute(db);
    await sql`drop function if exists meeting_text_keys(text, text[])`.execute(db);
    return;
  }
  for (const name of ['meetings_text_insert', 'meetings_text_update', 'meetings_text_new_start', 'meetings_text_delete', 'participants_text_insert', 'participants_text_update', 'participants_text_delete']) {
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  for (const table of ['meeting_text', 'meeting_text_rows', 'meeting_text_orgs']) await sql.raw(`drop table if exists ${table}`).execute(db);
}
