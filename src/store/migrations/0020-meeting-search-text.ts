// Each meeting's searchable text in one row: its title and each participant's name, email and
// company, joined by U+001F (the unit separator). list_meetings' `q` tested, for every meeting it
// walks, the title and then a count over the meeting's participants, three columns each, reading
// the meeting's row; one text is one test, beside the window's index. Through list_meetings over a
// year of W1's dataset (100,000 meetings, in process, medians of 9, 2-core AMD EPYC): an admin's
// two-character text (the walk) 500 → 75 ms on SQLite and 840–910 → 480–510 ms on PostgreSQL, a
// viewer's rare text 51–62 → 31–34 and 100–104 → 59–63 ms (README "Performance").
// A `q` holding U+001F could match across two fields here: it keeps the per-field test
// (meeting-filters.ts textMatches). The trigram index (0016, 0017) still proposes candidates; this
// row only makes each candidate's and each walked meeting's test cheaper.
//
// A row exists for each meeting, with the participants of that meeting (by its keys) as they are;
// participants written before their meeting join it when the meeting is written. Kept by triggers,
// so every writer (import, seed, a test's insert) keeps it right:
// - SQLite: row triggers on meetings (insert; a new title; delete) and participants (insert; a change
//   of a text field or a move; delete), each writing the meeting's text afresh (a meeting's few
//   participants are read again for each one written: a seed of 10,000 meetings took 2–11 % longer,
//   on a machine building a dataset meanwhile).
// - PostgreSQL: statement triggers with transition tables, each writing afresh the meetings a
//   statement touched, once (row triggers would write a meeting's text once per participant of a
//   batch). Each locks the meetings' rows here before it reads their title and participants, so
//   two transactions writing one meeting at once (its title, its participants) each write the text
//   as the one committed last left it. Transactions that write participants of the same meetings in
//   different orders can now deadlock (PostgreSQL ends one): imports take turns per organization,
//   and the seed writes alone.
//
// Cost at 100,000 meetings: SQLite ~2.6 s and ~41 MB (2.5 % of the file), PostgreSQL ~3.3 s and
// 48 MB; seeds on PostgreSQL took the same time within noise. Writers wait while it runs.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The separator of the fields in a meeting's text: a `q` holding it keeps the per-field test. */
export const FIELD_SEPARATOR = '\u001f';

/** A meeting's text from `m` and its participants (SQLite's group_concat, PostgreSQL's string_agg). */
const body = (postgres: boolean) => {
  const sep = postgres ? 'chr(31)' : 'char(31)';
  const fields = `p.name || ${sep} || coalesce(p.email, '') || ${sep} || coalesce(p.company, '')`;
  const joined = postgres ? `string_agg(${fields}, ${sep} order by p.id)` : `group_concat(${fields}, ${sep})`;
  return `m.title || ${sep} || coalesce((select ${joined} from participants p where p.org_id = m.org_id and p.meeting_id = m.id), '')`;
};

/** Writes afresh the text of the meetings `which` selects (a condition on `m`). */
const write = (postgres: boolean, which: string) => `insert into meeting_search_text (org_id, meeting_id, body)
      select m.org_id, m.id, ${body(postgres)} from meetings m where ${which}
      on conflict (org_id, meeting_id) do update set body = excluded.body;`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  await sql.raw(`create table meeting_search_text (org_id text not null, meeting_id text not null, body text not null, primary key (org_id, meeting_id))${postgres ? '' : ' without rowid'}`).execute(db);
  if (postgres) {
    await sql`lock table meetings, participants in share row exclusive mode`.execute(db);
    // The meetings' texts are written afresh in three statements, so that the text read is the
    // one committed last: (1) a row for each meeting that has none, (2) each row locked, in key
    // order (writers of the same meetings wait for each other here, not deadlock within one
    // statement), (3) each text computed and written, by a statement that starts after the locks
    // (READ COMMITTED, which every pool pins: store/postgres.ts), so it sees what a writer it
    // waited for committed: a new title, a participant gone.
    await sql.raw(`create function meeting_search_rewrite(orgs text[], ids text[]) returns void language plpgsql as $$
      begin
        insert into meeting_search_text (org_id, meeting_id, body)
          select m.org_id, m.id, '' from meetings m where (m.org_id, m.id) in (select * from unnest(orgs, ids)) order by m.org_id, m.id
          on conflict (org_id, meeting_id) do nothing;
        perform 1 from meeting_search_text t where (t.org_id, t.meeting_id) in (select * from unnest(orgs, ids)) order by t.org_id, t.meeting_id for update;
        update meeting_search_text t set body = ${body(true)} from meetings m
          where m.org_id = t.org_id and m.id = t.meeting_id and (t.org_id, t.meeting_id) in (select * from unnest(orgs, ids));
      end
    $$`).execute(db);
    // One function per table; each trigger names its transition tables `came` (new rows) and
    // `gone` (old rows), and each branch reads only those its operation has.
    const rewrite = (keys: string) => `perform meeting_search_rewrite(k.orgs, k.ids) from (select array_agg(org_id) as orgs, array_agg(id) as ids from (${keys}) keys (org_id, id)) k where k.orgs is not null;`;
    await sql.raw(`create function meeting_search_meetings() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          delete from meeting_search_text t using gone g where t.org_id = g.org_id and t.meeting_id = g.id;
        elsif tg_op = 'INSERT' then
          ${rewrite('select c.org_id, c.id from came c')}
        else
          ${rewrite('select c.org_id, c.id from came c join gone g on g.org_id = c.org_id and g.id = c.id where c.title is distinct from g.title')}
        end if;
        return null;
      end
    $$`).execute(db);
    await sql.raw(`create function meeting_search_participants() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${rewrite('select distinct c.org_id, c.meeting_id from came c')}
        elsif tg_op = 'DELETE' then
          ${rewrite('select distinct g.org_id, g.meeting_id from gone g')}
        else
          ${rewrite(`select c.org_id, c.meeting_id from came c join gone g on g.org_id = c.org_id and g.meeting_id = c.meeting_id and g.id = c.id
              where (c.name, c.email, c.company) is distinct from (g.name, g.email, g.company)
              union select g.org_id, g.meeting_id from gone g where not exists (select 1 from came c where c.org_id = g.org_id and c.meeting_id = g.meeting_id and c.id = g.id)
              union select c.org_id, c.meeting_id from came c where not exists (select 1 from gone g where g.org_id = c.org_id and g.meeting_id = c.meeting_id and g.id = c.id)`)}
        end if;
        return null;
      end
    $$`).execute(db);
    // TRUNCATE fires no row or statement trigger of the three kinds above: its own clears the texts
    // or their participants' part.
    await sql.raw(`create function meeting_search_truncated() returns trigger language plpgsql as $$
      begin
        if tg_table_name = 'meetings' then
          delete from meeting_search_text;
        else
          update meeting_search_text t set body = ${body(true)} from meetings m where m.org_id = t.org_id and m.id = t.meeting_id;
        end if;
        return null;
      end
    $$`).execute(db);
    for (const table of ['meetings', 'participants']) {
      await sql.raw(`create trigger ${table}_search_truncate after truncate on ${table} for each statement execute function meeting_search_truncated()`).execute(db);
    }
    for (const [table, fn] of [['meetings', 'meeting_search_meetings'], ['participants', 'meeting_search_participants']] as const) {
      await sql.raw(`create trigger ${table}_search_insert after insert on ${table} referencing new table as came for each statement execute function ${fn}()`).execute(db);
      await sql.raw(`create trigger ${table}_search_update after update on ${table} referencing old table as gone new table as came for each statement execute function ${fn}()`).execute(db);
      await sql.raw(`create trigger ${table}_search_delete after delete on ${table} referencing old table as gone for each statement execute function ${fn}()`).execute(db);
    }
    await sql.raw(write(true, 'true').replace(/;$/, '')).execute(db);
    await sql`analyze meeting_search_text`.execute(db);
    return;
  }
  const one = (org: string, id: string) => write(false, `m.org_id = ${org} and m.id = ${id}`);
  await sql.raw(`create trigger meetings_search_insert after insert on meetings begin ${one('new.org_id', 'new.id')} end`).execute(db);
  await sql.raw(`create trigger meetings_search_title after update of title on meetings when new.title is not old.title begin ${one('new.org_id', 'new.id')} end`).execute(db);
  await sql.raw(`create trigger meetings_search_delete after delete on meetings begin
      delete from meeting_search_text where org_id = old.org_id and meeting_id = old.id; end`).execute(db);
  await sql.raw(`create trigger participants_search_insert after insert on participants begin ${one('new.org_id', 'new.meeting_id')} end`).execute(db);
  await sql.raw(`create trigger participants_search_update after update of org_id, meeting_id, name, email, company on participants
      when new.name is not old.name or new.email is not old.email or new.company is not old.company or new.org_id is not old.org_id or new.meeting_id is not old.meeting_id
      begin ${one('old.org_id', 'old.meeting_id')} ${one('new.org_id', 'new.meeting_id')} end`).execute(db);
  await sql.raw(`create trigger participants_search_delete after delete on participants begin ${one('old.org_id', 'old.meeting_id')} end`).execute(db);
  await sql.raw(write(false, 'true').replace(/;$/, '')).execute(db);
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length > 0) await sql`analyze meeting_search_text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['meetings', 'participants']) {
    for (const op of isPostgres(db) ? ['insert', 'update', 'delete', 'truncate'] : table === 'meetings' ? ['insert', 'title', 'delete'] : ['insert', 'update', 'delete']) {
      await sql.raw(`drop trigger if exists ${table}_search_${op}${isPostgres(db) ? ` on ${table}` : ''}`).execute(db);
    }
  }
  if (isPostgres(db)) {
    await sql`drop function if exists meeting_search_meetings()`.execute(db);
    await sql`drop function if exists meeting_search_participants()`.execute(db);
    await sql`drop function if exists meeting_search_rewrite(text[], text[])`.execute(db);
    await sql`drop function if exists meeting_search_truncated()`.execute(db);
  }
  await sql`drop table if exists meeting_search_text`.execute(db);
}
