// SQLite: deals (org_id, id, status), so a count of a non-admin's deals by status (get_deals' total:
// open by default) reads each deal of their set from an index, not from its row. The count reads
// the set of deals they see (access/visibility.ts dealVisible 'set'), then each of those deals for
// its status: on W1's dataset (100,000 meetings, 20,000 deals; 2-core Xeon) a manager of 16 sees
// ~11,000 deals, and his count of open ones took ~45 ms, ~27 ms with this index (a viewer's ~11 →
// ~6 ms). Counts of every status were already read from the primary key alone.
//
// Not on PostgreSQL: there the index changed the count's plan both ways (alternating, three times
// each, on a copy of W1's dataset): a viewer's 18 → 8 ms, but a manager's 24 → 45 ms, since the
// planner, which guesses 200 deals in the set, then looked up each of his 11,000 deals instead of
// hashing the set against the open deals.
//
// Plain CREATE INDEX on the small deals table (~35 ms at 20,000 deals); statistics as 0014.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

const isSqlite = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`create index deals_id_status on deals (org_id, id, status)`.execute(db);
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length > 0) await sql`analyze deals_id_status`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`drop index if exists deals_id_status`.execute(db);
}
