// Each participant row carries its meeting's deal, and an index of them by email holds it, so "the
// deals of the meetings I attended" is read from that index alone. It is part of every non-admin's
// deal set (access/visibility.ts linkedDealIds), for get_deals' pages and counts; before, each
// attended meeting was looked up for its deal (meetings_id_deal, 0014): ~7 ms for a viewer's 6,800
// attended meetings at 100,000 meetings on SQLite, ~0.4 ms from the index. get_deals with its
// defaults, in process, before → after (copies of W1's dataset, medians of 9, 2-core Xeon busy
// with a seed): a viewer 46–48 → 28 ms on SQLite and 58–69 → 28 ms on PostgreSQL, a member 21–25 →
// 11–18 and 56–65 → 18–19 ms, a manager of 16 50–54 → 43–44 and 99–106 → 48–59 ms.
//
// Its own index (participants_email_deal), not a column added to participants_email_start (0011):
// PostgreSQL probed a deal's membership in the set through that index by email alone, reading the
// viewer's whole attendance once per deal walked (a page: ~230 ms). Partial: only participants of a
// meeting with a deal, the rows the set reads.
//
// The copy is kept where 0011 (and 0013, 0017) keep the start and owner, by the same triggers: a
// participant takes its meeting's deal when written or moved, a meeting hands its deal to its
// participants when written and when its deal changes, and a deleted meeting takes it back
// (participants outlive their meeting: no foreign key). A deal left on a participant would show a
// viewer a deal no meeting of hers links any more, so every write that can change the link goes
// through one of these triggers, and a change of a meeting's keys in place, which no writer makes
// and the triggers could not follow, is refused (meetings_keep_keys).
//
// PostgreSQL: the triggers read the meeting `for share` under READ COMMITTED, which every pool
// pins (store/postgres.ts): a participant written while its meeting's deal changes waits for it
// and reads the new deal. A participant and its meeting written at once by two transactions (the
// participant first) can leave the participant no deal until the meeting is written again: a
// deal hidden, never one shown; imports take turns per organization, and the start and owner
// copies (0011, 0017) share that window.
//
// Cost, at 100,000 meetings (320,000 participants): SQLite ~3 s and ~3 % more file (the migration
// holds the write lock, as every migration does); PostgreSQL ~64 s, as 0011 and 0017: the update
// writes a new version of every participant into each of its indexes, two trigram GIN indexes
// among them (dropping and rebuilding those took as long), and readers and writers of meetings and
// participants wait for it. Writes afterwards pay little: a participant's trigger already read its
// meeting and a meeting's new start or owner already rewrote its participants; what is new is the
// index, a meeting whose deal alone changes rewriting its participants, and on SQLite a trigger
// on each meeting deleted (seeds of 10,000 meetings took the same time within noise).
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The attended meetings' deals, by caller: what linkedDealIds reads (only participants of a meeting with a deal). */
const INDEX = `participants_email_deal on participants (org_id, email, deal_id) where deal_id is not null`;

// PostgreSQL trigger functions, as 0017 left them (down) and with the deal (up).
const PG_TAKE_0017 = `begin
        -- For share: a concurrent change of the meeting's start or owner is waited for, and the new one read.
        select m.start_at, m.owner_id into new.start_at, new.owner_id from meetings m where m.org_id = new.org_id and m.id = new.meeting_id for share;
        return new;
      end`;
const PG_TAKE_0018 = `begin
        -- For share: a concurrent change of the meeting's start, owner or deal is waited for, and the new one read.
        select m.start_at, m.owner_id, m.deal_id into new.start_at, new.owner_id, new.deal_id from meetings m where m.org_id = new.org_id and m.id = new.meeting_id for share;
        return new;
      end`;
const PG_HAND_DOWN_0017 = `begin
        update participants set start_at = new.start_at, owner_id = new.owner_id where org_id = new.org_id and meeting_id = new.id;
        return null;
      end`;
const PG_HAND_DOWN_0018 = `begin
        update participants set start_at = new.start_at, owner_id = new.owner_id, deal_id = new.deal_id where org_id = new.org_id and meeting_id = new.id;
        return null;
      end`;
const PG_RELEASE_0017 = `begin
        update participants set owner_id = null where org_id = old.org_id and meeting_id = old.id;
        return null;
      end`;
const PG_RELEASE_0018 = `begin
        -- Participants outlive a deleted meeting: they lose its owner (0017) and its deal (0018).
        update participants set owner_id = null, deal_id = null where org_id = old.org_id and meeting_id = old.id;
        return null;
      end`;
const PG_NEW_START_0017 = `after update of start_at, owner_id on meetings
      for each row when (new.start_at is distinct from old.start_at or new.owner_id is distinct from old.owner_id)`;
const PG_NEW_START_0018 = `after update of start_at, owner_id, deal_id on meetings
      for each row when (new.start_at is distinct from old.start_at or new.owner_id is distinct from old.owner_id or new.deal_id is distinct from old.deal_id)`;

async function pgFunctions(db: Kysely<unknown>, take: string, handDown: string, release: string, newStart: string): Promise<void> {
  await sql.raw(`create or replace function participants_take_start() returns trigger language plpgsql as $$ ${take} $$`).execute(db);
  await sql.raw(`create or replace function meetings_hand_down_start() returns trigger language plpgsql as $$ ${handDown} $$`).execute(db);
  await sql.raw(`create or replace function meetings_release_owner() returns trigger language plpgsql as $$ ${release} $$`).execute(db);
  await sql`drop trigger meetings_hand_down_new_start on meetings`.execute(db);
  await sql.raw(`create trigger meetings_hand_down_new_start ${newStart} execute function meetings_hand_down_start()`).execute(db);
}

// SQLite triggers, as 0011 and 0013 left them (down) and with the deal (up).
const takeOwn = (columns: string) => `update participants set ${columns}
        where org_id = new.org_id and meeting_id = new.meeting_id and id = new.id;`;
const handDownOwn = (columns: string) => `update participants set ${columns} where org_id = new.org_id and meeting_id = new.id;`;
const SQLITE_0011 = {
  take: takeOwn('start_at = (select m.start_at from meetings m where m.org_id = new.org_id and m.id = new.meeting_id)'),
  handDown: handDownOwn('start_at = new.start_at'),
  newStart: 'after update of start_at on meetings when new.start_at is not old.start_at',
};
const SQLITE_0018 = {
  take: takeOwn('(start_at, deal_id) = (select m.start_at, m.deal_id from meetings m where m.org_id = new.org_id and m.id = new.meeting_id)'),
  handDown: handDownOwn('start_at = new.start_at, deal_id = new.deal_id'),
  newStart: 'after update of start_at, deal_id on meetings when new.start_at is not old.start_at or new.deal_id is not old.deal_id',
};

async function sqliteTriggers(db: Kysely<unknown>, t: typeof SQLITE_0011): Promise<void> {
  for (const name of ['participants_take_start', 'participants_take_moved_start', 'meetings_hand_down_start', 'meetings_hand_down_new_start']) {
    await sql.raw(`drop trigger ${name}`).execute(db);
  }
  await sql.raw(`create trigger participants_take_start after insert on participants begin ${t.take} end`).execute(db);
  await sql.raw(`create trigger participants_take_moved_start after update of org_id, meeting_id on participants begin ${t.take} end`).execute(db);
  await sql.raw(`create trigger meetings_hand_down_start after insert on meetings begin ${t.handDown} end`).execute(db);
  await sql.raw(`create trigger meetings_hand_down_new_start ${t.newStart} begin ${t.handDown} end`).execute(db);
}

/**
 * A meeting's keys (org_id, id) never change: writers upsert on them (import.ts leaves them out of
 * its update). The copies follow a meeting by its keys, so a key changed in place would leave its
 * participants the old meeting's deal (and start, and owner): a viewer would keep a deal no meeting
 * of hers links. Refused instead, on both dialects; delete and write the meeting again.
 */
const KEYS_REFUSED = 'meetings keep their org_id and id: delete the meeting and write it again';

async function refuseKeyChanges(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw(`create function meetings_keep_keys() returns trigger language plpgsql as $$
      begin
        raise exception '${KEYS_REFUSED}';
      end
    $$`).execute(db);
    await sql`create trigger meetings_keep_keys before update of org_id, id on meetings
      for each row when (new.org_id is distinct from old.org_id or new.id is distinct from old.id) execute function meetings_keep_keys()`.execute(db);
    return;
  }
  await sql.raw(`create trigger meetings_keep_keys before update of org_id, id on meetings
      when new.org_id is not old.org_id or new.id is not old.id begin select raise(abort, '${KEYS_REFUSED}'); end`).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await refuseKeyChanges(db);
  if (isPostgres(db)) {
    await sql`lock table meetings, participants in share row exclusive mode`.execute(db);
    await sql`alter table participants add column deal_id text`.execute(db);
    await sql`update participants p set deal_id = m.deal_id from meetings m where m.org_id = p.org_id and m.id = p.meeting_id and m.deal_id is not null`.execute(db);
    await pgFunctions(db, PG_TAKE_0018, PG_HAND_DOWN_0018, PG_RELEASE_0018, PG_NEW_START_0018);
    await sql.raw(`create index ${INDEX}`).execute(db);
    if ((await sql`select 1 from participants limit 1`.execute(db)).rows.length > 0) await sql`analyze participants`.execute(db);
    return;
  }
  await sql`alter table participants add column deal_id text`.execute(db);
  await sql`update participants set deal_id = (select m.deal_id from meetings m where m.org_id = participants.org_id and m.id = participants.meeting_id)`.execute(db);
  await sqliteTriggers(db, SQLITE_0018);
  // A deleted meeting takes its deal back (0011 left its start, which no read uses without the meeting).
  await sql`create trigger meetings_release_deal after delete on meetings begin
      update participants set deal_id = null where org_id = old.org_id and meeting_id = old.id and deal_id is not null;
    end`.execute(db);
  await sql.raw(`create index ${INDEX}`).execute(db);
  // Statistics for the new index where the database keeps them (sqlite_stat1, as 0014).
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length > 0) await sql`analyze participants_email_deal`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists participants_email_deal`.execute(db);
  if (isPostgres(db)) {
    await sql`drop trigger if exists meetings_keep_keys on meetings`.execute(db);
    await sql`drop function if exists meetings_keep_keys()`.execute(db);
    await pgFunctions(db, PG_TAKE_0017, PG_HAND_DOWN_0017, PG_RELEASE_0017, PG_NEW_START_0017);
  } else {
    await sql`drop trigger if exists meetings_keep_keys`.execute(db);
    await sql`drop trigger if exists meetings_release_deal`.execute(db);
    await sqliteTriggers(db, SQLITE_0011);
  }
  await sql`alter table participants drop column deal_id`.execute(db);
}
