// The trigram index of list_meetings' `q` (migration 0016) again, keyed by each meeting's owner, so
// a caller who does not see every meeting reads only the rows of the owners they see (themselves,
// their managed members) and never another's. 0016's index is the organization's: reading it for a
// manager would let a search's time tell how often a text occurs in meetings he cannot see, so
// managers searched by the policy's predicate, testing every meeting they see in the window: a
// manager of 16 looking for a rare text over a year at 100,000 meetings took ~0.4 s on SQLite.
// Reading his owners' rows takes ~1 ms, the whole search ~20 ms, most of it the meetings of other
// owners he attended, tested directly (meeting-text.ts; a copy of the bench dataset, 2-core Xeon).
//
// SQLite: a second contentless FTS5 table, its rowids in ranges of 2^40 per (organization, owner)
// (meeting_text_owners), plus 0016's row id. Each 0016 row records its range (owner_key), set when
// the row is written if its meeting is there: triggers on meeting_text_rows follow every row 0016's
// triggers add or drop. A meeting's own triggers keep the rest: written, it gives its range to its
// rows that have none (participants written before it, or kept from a deleted meeting of that id);
// deleted, it takes its range back from its rows (participants outlive their meeting: they have no
// foreign key to it); given another owner, it moves its rows to that owner's range. (A meeting's keys
// never change: writers upsert on them.) ~3 % more file, ~17 s per 100,000 meetings to fill (the
// same Xeon).
//
// PostgreSQL: each participant carries its meeting's owner (as it carries its start, 0011), and
// two GIN indexes hash each trigram with the organization and the owner. The owner copy is set by
// 0011's triggers, whose functions now copy the owner with the start (one lookup per participant);
// its trigger on a meeting's new start now also fires on a new owner, and a deleted meeting's
// participants lose its owner.
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { ORG_SPAN } from './0016-meeting-text-index.ts';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The range width of each (organization, owner) in meeting_text_owned, as 0016's per organization. */
export const OWNER_SPAN = ORG_SPAN;

/** The key GIN hashes a meeting's or participant's trigrams with: organization and owner (meeting-text.ts computes the same). */
export const ownerScope = (org: string, owner: string) => `${org} || chr(30) || ${owner}`;

/** A 0016 row's text: its meeting's title, or its participant's fields on separate lines (as 0016 indexes them). */
const rowText = (r: string) => `case when ${r}.participant_id is null
    then (select m.title from meetings m where m.org_id = ${r}.org_id and m.id = ${r}.meeting_id)
    else (select p.name || char(10) || coalesce(p.email, '') || char(10) || coalesce(p.company, '') from participants p
      where p.org_id = ${r}.org_id and p.meeting_id = ${r}.meeting_id and p.id = ${r}.participant_id) end`;

/** The (organization, owner) range of a meeting's owner, added if new. */
const addOwner = (org: string, owner: string) => `insert into meeting_text_owners (org_id, owner_id) select ${org}, ${owner}
    where not exists (select 1 from meeting_text_owners where org_id = ${org} and owner_id = ${owner});`;
const ownerKey = (org: string, owner: string) => `(select k.id from meeting_text_owners k where k.org_id = ${org} and k.owner_id = ${owner})`;

/** In a meeting trigger: its rows leave their range (the index first, then the rows' keys). */
const release = (m: 'old' | 'new') => `delete from meeting_text_owned where rowid in (select r.owner_key * ${OWNER_SPAN} + r.id from meeting_text_rows r
        where r.org_id = ${m}.org_id and r.meeting_id = ${m}.id and r.owner_key is not null);
      update meeting_text_rows set owner_key = null where org_id = ${m}.org_id and meeting_id = ${m}.id and owner_key is not null;`;

/** In a meeting trigger: its rows without a range take its owner's, rows first into the index (only those without one). */
const ADOPT = `${addOwner('new.org_id', 'new.owner_id')}
      insert into meeting_text_owned (rowid, body) select ${ownerKey('new.org_id', 'new.owner_id')} * ${OWNER_SPAN} + r.id, ${rowText('r')}
        from meeting_text_rows r where r.org_id = new.org_id and r.meeting_id = new.id and r.owner_key is null;
      update meeting_text_rows set owner_key = ${ownerKey('new.org_id', 'new.owner_id')} where org_id = new.org_id and meeting_id = new.id and owner_key is null;`;

const PG_TAKE_START_0011 = `begin
        -- For share: a concurrent change of the meeting's start is waited for, and its new start read.
        new.start_at := (select m.start_at from meetings m where m.org_id = new.org_id and m.id = new.meeting_id for share);
        return new;
      end`;
const PG_HAND_DOWN_0011 = `begin
        update participants set start_at = new.start_at where org_id = new.org_id and meeting_id = new.id;
        return null;
      end`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    // As 0011: writers and readers wait until the copy is filled and kept (one transaction).
    await sql`lock table meetings, participants in share row exclusive mode`.execute(db);
    await sql`alter table participants add column owner_id text`.execute(db);
    await sql`update participants p set owner_id = m.owner_id from meetings m where m.org_id = p.org_id and m.id = p.meeting_id`.execute(db);
    await sql`create or replace function participants_take_start() returns trigger language plpgsql as $$
      begin
        -- For share: a concurrent change of the meeting's start or owner is waited for, and the new one read.
        select m.start_at, m.owner_id into new.start_at, new.owner_id from meetings m where m.org_id = new.org_id and m.id = new.meeting_id for share;
        return new;
      end
    $$`.execute(db);
    await sql`create or replace function meetings_hand_down_start() returns trigger language plpgsql as $$
      begin
        update participants set start_at = new.start_at, owner_id = new.owner_id where org_id = new.org_id and meeting_id = new.id;
        return null;
      end
    $$`.execute(db);
    // One trigger for a new start or a new owner (0011's for the start alone is replaced): an upsert
    // that changes both rewrites the participants once.
    await sql`drop trigger meetings_hand_down_new_start on meetings`.execute(db);
    await sql`create trigger meetings_hand_down_new_start after update of start_at, owner_id on meetings
      for each row when (new.start_at is distinct from old.start_at or new.owner_id is distinct from old.owner_id) execute function meetings_hand_down_start()`.execute(db);
    // Participants outlive a deleted meeting (no foreign key): they leave its owner's keys.
    await sql`create function meetings_release_owner() returns trigger language plpgsql as $$
      begin
        update participants set owner_id = null where org_id = old.org_id and meeting_id = old.id;
        return null;
      end
    $$`.execute(db);
    await sql`create trigger meetings_release_owner after delete on meetings for each row execute function meetings_release_owner()`.execute(db);
    await sql`create index meetings_owner_text on meetings using gin (meeting_text_keys(${sql.raw(ownerScope('org_id', 'owner_id'))}, title))`.execute(db);
    await sql`create index participants_owner_text on participants using gin (meeting_text_keys(${sql.raw(ownerScope('org_id', 'owner_id'))}, name, email, company))`.execute(db);
    if ((await sql`select 1 from meetings limit 1`.execute(db)).rows.length > 0) await sql`analyze meetings, participants`.execute(db);
    return;
  }
  await sql`create table meeting_text_owners (id integer primary key, org_id text not null, owner_id text not null, unique (org_id, owner_id))`.execute(db);
  await sql`alter table meeting_text_rows add column owner_key integer`.execute(db);
  await sql`create virtual table meeting_text_owned using fts5(body, content = '', contentless_delete = 1, detail = none, tokenize = 'trigram')`.execute(db);

  // A row 0016 adds takes its meeting's range (none while the meeting is not written yet); a row it drops leaves.
  await sql.raw(`create trigger meeting_text_rows_owned_insert after insert on meeting_text_rows begin
      insert into meeting_text_owners (org_id, owner_id) select m.org_id, m.owner_id from meetings m where m.org_id = new.org_id and m.id = new.meeting_id
        and not exists (select 1 from meeting_text_owners k where k.org_id = m.org_id and k.owner_id = m.owner_id);
      update meeting_text_rows set owner_key = (select k.id from meetings m join meeting_text_owners k on k.org_id = m.org_id and k.owner_id = m.owner_id
        where m.org_id = new.org_id and m.id = new.meeting_id) where id = new.id;
      insert into meeting_text_owned (rowid, body) select r.owner_key * ${OWNER_SPAN} + r.id, ${rowText('r')} from meeting_text_rows r where r.id = new.id and r.owner_key is not null;
    end`).execute(db);
  await sql.raw(`create trigger meeting_text_rows_owned_delete after delete on meeting_text_rows when old.owner_key is not null begin
      delete from meeting_text_owned where rowid = old.owner_key * ${OWNER_SPAN} + old.id;
    end`).execute(db);
  await sql.raw(`create trigger meetings_text_owned_insert after insert on meetings begin ${ADOPT} end`).execute(db);
  await sql.raw(`create trigger meetings_text_owned_owner after update of owner_id on meetings when new.owner_id is not old.owner_id begin
      ${release('new')}
      ${ADOPT}
    end`).execute(db);
  await sql.raw(`create trigger meetings_text_owned_delete after delete on meetings begin ${release('old')} end`).execute(db);

  // The rows there are: every owner's range, each row's, then the index.
  await sql`insert into meeting_text_owners (org_id, owner_id) select distinct org_id, owner_id from meetings`.execute(db);
  await sql`update meeting_text_rows set owner_key = (select k.id from meetings m join meeting_text_owners k on k.org_id = m.org_id and k.owner_id = m.owner_id
    where m.org_id = meeting_text_rows.org_id and m.id = meeting_text_rows.meeting_id)`.execute(db);
  await sql`insert into meeting_text_owned (rowid, body) select r.owner_key * ${sql.raw(OWNER_SPAN)} + r.id, m.title from meeting_text_rows r
    join meetings m on m.org_id = r.org_id and m.id = r.meeting_id where r.participant_id is null and r.owner_key is not null`.execute(db);
  await sql`insert into meeting_text_owned (rowid, body)
    select r.owner_key * ${sql.raw(OWNER_SPAN)} + r.id, p.name || char(10) || coalesce(p.email, '') || char(10) || coalesce(p.company, '') from meeting_text_rows r
    join participants p on p.org_id = r.org_id and p.meeting_id = r.meeting_id and p.id = r.participant_id where r.owner_key is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists participants_owner_text`.execute(db);
    await sql`drop index if exists meetings_owner_text`.execute(db);
    await sql`drop trigger if exists meetings_release_owner on meetings`.execute(db);
    await sql`drop function if exists meetings_release_owner()`.execute(db);
    await sql`drop trigger if exists meetings_hand_down_new_start on meetings`.execute(db);
    await sql`create trigger meetings_hand_down_new_start after update of start_at on meetings
      for each row when (new.start_at is distinct from old.start_at) execute function meetings_hand_down_start()`.execute(db);
    await sql.raw(`create or replace function participants_take_start() returns trigger language plpgsql as $$ ${PG_TAKE_START_0011} $$`).execute(db);
    await sql.raw(`create or replace function meetings_hand_down_start() returns trigger language plpgsql as $$ ${PG_HAND_DOWN_0011} $$`).execute(db);
    await sql`alter table participants drop column if exists owner_id`.execute(db);
    return;
  }
  for (const name of ['meeting_text_rows_owned_insert', 'meeting_text_rows_owned_delete', 'meetings_text_owned_insert', 'meetings_text_owned_owner', 'meetings_text_owned_delete']) {
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`drop table if exists meeting_text_owned`.execute(db);
  await sql`alter table meeting_text_rows drop column owner_key`.execute(db);
  await sql`drop table if exists meeting_text_owners`.execute(db);
}
