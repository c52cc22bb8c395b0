// Each participant row carries its meeting's start time, and "attended" is indexed by it:
// (org_id, email, start_at, meeting_id) replaces (org_id, email, meeting_id). A member's or
// viewer's list ("own or attended") and a list filtered by a participant's email then read only the
// attended meetings inside the list's window. Before, both read every meeting the email ever
// attended: a member's 30-day page took ~24 ms on SQLite at 100,000 meetings (3,311 attended), a
// viewer's ~51 ms (7,262), and an admin's one-email filter over ten years ~240 ms, all growing
// with the organization's history.
//
// Triggers keep the copy, so every writer (import, seed, an upsert that moves a meeting) keeps it
// right: a participant takes its meeting's start when it is written, a meeting passes a new start
// to its participants, and a meeting written after its participants hands them its start. A
// participant whose meeting does not exist (yet) has none, and is in no window.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** In a meeting trigger: gives the meeting's participants its start. */
const handDown = sql.raw(`update participants set start_at = new.start_at where org_id = new.org_id and meeting_id = new.id;`);

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    // A rolling deploy's older instances may still write meetings and participants: hold them off
    // until the copies are filled and the triggers keep them (the migration is one transaction).
    // Readers wait too: ALTER TABLE holds participants exclusively until the migration commits,
    // through the fill and the index (~10 s per 100,000 meetings on a 2-core machine). A large
    // database takes this upgrade in a quiet hour (README "Production", Upgrading).
    await sql`lock table meetings, participants in share row exclusive mode`.execute(db);
    await sql`alter table participants add column start_at bigint`.execute(db);
    await sql`update participants p set start_at = m.start_at from meetings m where m.org_id = p.org_id and m.id = p.meeting_id`.execute(db);
    await sql`create function participants_take_start() returns trigger language plpgsql as $$
      begin
        -- For share: a concurrent change of the meeting's start is waited for, and its new start read.
        new.start_at := (select m.start_at from meetings m where m.org_id = new.org_id and m.id = new.meeting_id for share);
        return new;
      end
    $$`.execute(db);
    await sql`create trigger participants_take_start before insert or update of org_id, meeting_id on participants
      for each row execute function participants_take_start()`.execute(db);
    await sql`create function meetings_hand_down_start() returns trigger language plpgsql as $$
      begin
        ${handDown}
        return null;
      end
    $$`.execute(db);
    await sql`create trigger meetings_hand_down_start after insert on meetings
      for each row execute function meetings_hand_down_start()`.execute(db);
    await sql`create trigger meetings_hand_down_new_start after update of start_at on meetings
      for each row when (new.start_at is distinct from old.start_at) execute function meetings_hand_down_start()`.execute(db);
  } else {
    await sql`alter table participants add column start_at integer`.execute(db);
    await sql`update participants set start_at = (select m.start_at from meetings m where m.org_id = participants.org_id and m.id = participants.meeting_id)`.execute(db);
    await sql`create trigger participants_take_start after insert on participants begin
        update participants set start_at = (select m.start_at from meetings m where m.org_id = new.org_id and m.id = new.meeting_id)
        where org_id = new.org_id and meeting_id = new.meeting_id and id = new.id;
      end`.execute(db);
    await sql`create trigger meetings_hand_down_start after insert on meetings begin ${handDown} end`.execute(db);
    await sql`create trigger meetings_hand_down_new_start after update of start_at on meetings
      when new.start_at is not old.start_at begin ${handDown} end`.execute(db);
  }
  await sql`drop index participants_email`.execute(db);
  await sql`create index participants_email_start on participants (org_id, email, start_at, meeting_id)`.execute(db);
  // Statistics for the new column and index on an upgraded database (a new one has no rows to
  // sample, and statistics of an empty table would mislead the planner once it fills).
  if ((await sql`select 1 from participants limit 1`.execute(db)).rows.length > 0) await sql`analyze participants`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists participants_email_start`.execute(db);
  await sql`create index participants_email on participants (org_id, email, meeting_id)`.execute(db);
  if (isPostgres(db)) {
    await sql`drop trigger if exists participants_take_start on participants`.execute(db);
    await sql`drop trigger if exists meetings_hand_down_start on meetings`.execute(db);
    await sql`drop trigger if exists meetings_hand_down_new_start on meetings`.execute(db);
    await sql`drop function if exists participants_take_start()`.execute(db);
    await sql`drop function if exists meetings_hand_down_start()`.execute(db);
  } else {
    for (const name of ['participants_take_start', 'meetings_hand_down_start', 'meetings_hand_down_new_start']) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`alter table participants drop column start_at`.execute(db);
}
