// The scheduled meetings by start, with their deal, owner and id: what get_deals' has_upcoming_meeting
// reads ("the deals of the scheduled meetings after now that the caller may see"). Without it the
// filter read each future meeting's row through meetings_start, ~4,400 rows at 100,000 meetings,
// for the page and again for the count (an admin's call: ~80 ms on SQLite). From this index alone:
// the start bounds the range, the deal is what the set holds, the owner answers the meeting
// policy's owner arm and the id its attendance probe (participants_meeting_email), for every role.
//
// Partial (status = 'scheduled'): only meetings ahead are scheduled, a few percent of all, so the
// index stays small and a meeting leaves it when it completes or is canceled. Both dialects use a
// partial index for a query whose condition names the same literal, as the filter does.
//
// Plain CREATE INDEX (migrations run in one transaction): writers to meetings wait while it is
// built, one read of the meetings table (the whole `migrate` took 3.6 s at 110,000 meetings on
// SQLite, where every writer waits: README "Upgrading"). Statistics as in 0014: where the SQLite
// database has sqlite_stat1, the new index gets its row, so the planner does not guess for it alone.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index meetings_upcoming on meetings (org_id, start_at, deal_id, owner_id, id) where status = 'scheduled'`.execute(db);
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length > 0) await sql`analyze meetings_upcoming`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists meetings_upcoming`.execute(db);
}
