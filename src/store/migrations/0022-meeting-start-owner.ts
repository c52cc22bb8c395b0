// meetings_start, the window's index every list walks, also holds each meeting's owner. A manager's
// list and its count test the meeting policy on each meeting they walk: "one of the owners I see,
// or one I attended" (members and viewers read their own arms: sales/meeting-arms.ts). The
// attended part reads the id, which the index held; the owner was in the meeting's row, so the
// walk read the row of every meeting of the window it passed, visible or not, before testing
// anything. A long walk (a `q` with few matches among what the caller sees, counted to the cap)
// read most of the window's rows that way. With the owner in the index, such a walk reads no row
// of a meeting it does not keep: on PostgreSQL an index-only scan (where the visibility map says
// so), on SQLite a covering index for a count and a row read only after the policy for a page.
// At 100,000 meetings, over a year, through the tool (2-core AMD EPYC, the old index and this one
// on the same copy of W1's dataset, medians of 9, two runs): a manager of 6's "kowalski" (the
// owners' rows past the probe's bound: the walk) 278–285 → 58–59 ms on SQLite, 123–134 → 67 ms on
// PostgreSQL; a text in none of her meetings 391–419 → 74 and 181–187 → 90–92 ms; a manager of
// 16's 30 days without `q` 6.3–6.7 → 1.7–1.8 and 4.3–6.5 → 3.5–4.8 ms (README, Performance). W1's list (an admin's) reads 26 entries and counts 501 from the same index: within
// noise. An admin's walk has no policy to test; members and viewers read their own arms.
//
// PostgreSQL keeps the owner out of the key (INCLUDE): the order is (start, id) as before. SQLite has
// no INCLUDE; the owner after the id, which is unique, changes no order either. The index keeps its
// name (the comments and plans name it): on PostgreSQL the new one is built beside the old and
// renamed once the old is dropped, so reads keep an index until the last moment (DROP INDEX waits
// for the statements reading the table, up to the 10 s query timeout, and then holds every reader
// of it until the migration commits); on SQLite every writer
// waits for the migration anyway, and readers of a WAL database read the old schema until it
// commits. Statistics as 0014: where SQLite has them, the rebuilt index gets its row again.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

const isSqlite = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof SqliteAdapter;

async function analyzeWhereAnalyzed(db: Kysely<unknown>): Promise<void> {
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length > 0) await sql`analyze meetings_start`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    await sql`drop index meetings_start`.execute(db);
    await sql`create index meetings_start on meetings (org_id, start_at, id, owner_id)`.execute(db);
    await analyzeWhereAnalyzed(db);
    return;
  }
  await sql`create index meetings_start_owner on meetings (org_id, start_at, id) include (owner_id)`.execute(db);
  await sql`drop index meetings_start`.execute(db);
  await sql`alter index meetings_start_owner rename to meetings_start`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    await sql`drop index meetings_start`.execute(db);
    await sql`create index meetings_start on meetings (org_id, start_at, id)`.execute(db);
    await analyzeWhereAnalyzed(db);
    return;
  }
  await sql`create index meetings_start_plain on meetings (org_id, start_at, id)`.execute(db);
  await sql`drop index meetings_start`.execute(db);
  await sql`alter index meetings_start_plain rename to meetings_start`.execute(db);
}
