// The deals a caller's own meetings (and a manager's members' meetings) are linked to, read from
// the index alone: (org_id, owner_id, deal_id). A deal is visible to a non-admin when it is linked
// to a meeting they may see (access/visibility.ts dealVisible); reading those meetings' deal ids
// through meetings_owner_start looked up every meeting's row, ~30,000 for a manager of seven at
// 100,000 meetings: ~200 ms per get_deals call on SQLite, ~20 ms with this index.
//
// A plain CREATE INDEX (migrations run in a transaction): writers to meetings wait while it is
// built, about a second per million meetings.
//
// No ANALYZE: an index on plain columns is planned from the table's column statistics.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index meetings_owner_deal on meetings (org_id, owner_id, deal_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists meetings_owner_deal`.execute(db);
}
