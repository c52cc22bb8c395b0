// SQLite: what get_deals' search tests, in an index, so a search reads no deal's or account's row
// to test it. A search's matches are gathered in one pass (sales/deal-first-page.ts searchFirstPage), and for
// an admin, who sees every deal, that pass tested every deal of the status through its row (its
// name) and read every account of the organization for its name and domain: on W1's dataset
// (100,000 meetings, 20,000 deals, 10,000 accounts; 2-core Xeon, through the tool, medians of 7,
// two runs alternating on copies with and without these indexes) an admin's "acme" 42–45 → 13–21 ms,
// a text no deal holds 32–34 → 7–12 ms, "acme" over every status by amount 43–62 → 16–18 ms. Each
// deal's entry holds what a search's pass reads: its status (equal, so the default open deals are a
// range), name, account, both sort keys and id. Other roles' searches, which read the deals they
// see by id, and other get_deals calls measured the same within noise.
//
// Not on PostgreSQL: there the same columns, as an index with INCLUDE read only from the index
// (vacuumed), changed nothing measurable; its pass is the test itself, each name and account's
// lower() and LIKE.
//
// Plain CREATE INDEX on the small deals and accounts tables; statistics as 0014.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

const isSqlite = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`create index deals_search on deals (org_id, status, name, account_id, close_date, amount, id)`.execute(db);
  await sql`create index accounts_search on accounts (org_id, name, domain, id)`.execute(db);
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length > 0) {
    await sql`analyze deals_search`.execute(db);
    await sql`analyze accounts_search`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`drop index if exists accounts_search`.execute(db);
  await sql`drop index if exists deals_search`.execute(db);
}
