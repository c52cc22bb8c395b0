// Indexes for what get_deals and get_deal read, each measured at 100,000 meetings (20,000 deals)
// on SQLite, as the tool reads it (list, count, meeting stats):
// - participants (org_id, meeting_id, email): "did the caller attend this meeting" as one index
//   probe. SQLite answered it from participants_email_start, which has the meeting id after the
//   start, so it read the caller's whole attendance for each meeting probed: a viewer's meeting
//   stats for one page of deals took ~130 ms, ~0.3 ms with this index.
// - meetings (org_id, id, deal_id): the deal of each meeting a non-admin attended, from the index
//   alone instead of each meeting's row (the set of a viewer's deals: ~34 ms → ~14 ms).
// - deals by close date and by amount, with and without the status: the sorts get_deals offers.
//   Only (status, close date) had an index, so "all" statuses or an amount sort read and sorted
//   every deal of the organization (an admin's page: ~90 ms and ~47 ms, now ~0.3 ms).
//
// Plain CREATE INDEX (migrations run in one transaction): writers wait while they are built, ~12 s
// per million meetings on a 2-core machine (0.26 s at 22,000; ~3.5 s for the whole `migrate` at
// 100,000 on a busy one). On PostgreSQL the writers to these three tables; on SQLite every writer,
// since the migration holds the database's write lock (README "Production", Upgrading).
//
// Statistics: PostgreSQL plans an index on plain columns from the table's column statistics. SQLite
// plans from sqlite_stat1 where a bulk load (seed, import) wrote it, and guesses for an index with
// no row there: it then chose participants_meeting_email over the primary key for a page's
// participants, an index that gives them in no order, so every W1 call sorted them. So where the
// database has statistics, the new indexes get theirs (one scan of each index; no writes to the
// tables), and where it has none the planner keeps guessing alike for every index.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

const INDEXES = [
  ['participants_meeting_email', 'participants (org_id, meeting_id, email)'],
  ['meetings_id_deal', 'meetings (org_id, id, deal_id)'],
  ['deals_close', 'deals (org_id, close_date, id)'],
  ['deals_status_amount', 'deals (org_id, status, amount, id)'],
  ['deals_amount', 'deals (org_id, amount, id)'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, on] of INDEXES) await sql`create index ${sql.raw(name)} on ${sql.raw(on)}`.execute(db);
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length > 0) for (const [name] of INDEXES) await sql`analyze ${sql.raw(name)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await sql`drop index if exists ${sql.raw(name)}`.execute(db);
}
