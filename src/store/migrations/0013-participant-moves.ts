// A participant row moved to another meeting (an update of its org_id or meeting_id) takes that
// meeting's start on SQLite too. 0011's PostgreSQL trigger runs before insert or such an update;
// its SQLite trigger ran after insert only, so a moved row kept its old meeting's start there and
// stayed out of the new meeting's window in attended reads. No writer moves participants today
// (imports upsert by the whole key); the dialects keep the same copy all the same.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create trigger participants_take_moved_start after update of org_id, meeting_id on participants begin
      update participants set start_at = (select m.start_at from meetings m where m.org_id = new.org_id and m.id = new.meeting_id)
      where org_id = new.org_id and meeting_id = new.meeting_id and id = new.id;
    end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`drop trigger if exists participants_take_moved_start`.execute(db);
}
