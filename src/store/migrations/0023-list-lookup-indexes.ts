// SQLite: what a meeting list reads of each meeting's owner, account and external participants, in
// indexes that hold it, so a page reads none of their rows. SQLite keeps a table with a text
// primary key as rows by rowid plus an index on the key: a lookup by key is two searches, the
// index's and the row's. A list_meetings page of 25 (W1) looks up 26 owners and accounts and reads
// its meetings' participants by meeting (sellers too, only to skip them), each through its row.
// With a user's label (name, email, role: sales/lookups.ts), an account's domain and name, and the
// non-seller participants' shown columns in an index, each is one search, and sellers are not
// read at all: the partial index holds none. The statement names the side as the index's literal
// (sales/meeting-participants.ts), and the index holds the side too, which SQLite 3.53 still
// reads to test the statement's condition. The users' and accounts' indexes are chosen where the
// database has planner statistics (sqlite_stat1), as the seed and every import write them; without
// any, SQLite prefers the tables' unique keys and reads the rows as before.
// On W1's dataset (2-core Xeon, node:sqlite, medians of alternating runs on copies with and without
// these indexes): the page's statement ~85 → ~73 µs, its participants ~71–79 → ~57 µs (~92 µs with
// the side as a parameter); the service under W1's load 1.04× (0.74–1.27) the throughput and 0.97×
// the CPU a request, medians of 18 alternating 5 s rounds on a noisy machine. The indexes are ~2%
// of that database (34 MB of 1.6 GB, nearly all the participants'), built in ~1.2 s at 110,000
// meetings and 350,000 participants while every writer waits (as for 0014); a seed of 10,000
// meetings took no longer (18.8 → 17.3 s, alternating, twice each).
//
// 0021's accounts_search (org_id, name, domain, id) holds what the new accounts index holds; a
// search's test of every account of the organization read either alike, and the planner took the
// new one: it is dropped, one index fewer for every write of an account.
//
// Not on PostgreSQL: the same columns as INCLUDE indexes are read index-only (vacuumed), but W1's
// one statement ran 852 → 809 µs (medians of five alternations), within that machine's noise;
// there every statement is a round trip, and the rows it reads are a small part of it.
//
// Plain CREATE INDEX; statistics as 0014.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

const isSqlite = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof SqliteAdapter;

const INDEXES = ['users_label', 'accounts_label', 'participants_external'] as const;

async function analyzeWhereAnalyzed(db: Kysely<unknown>, names: readonly string[]): Promise<void> {
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length > 0) for (const name of names) await sql`analyze ${sql.raw(name)}`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`create index users_label on users (org_id, id, name, email, role)`.execute(db);
  await sql`create index accounts_label on accounts (org_id, id, domain, name)`.execute(db);
  await sql`create index participants_external on participants (org_id, meeting_id, id, side, name, email, company, title) where side <> 'seller'`.execute(db);
  await sql`drop index accounts_search`.execute(db);
  await analyzeWhereAnalyzed(db, INDEXES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`create index accounts_search on accounts (org_id, name, domain, id)`.execute(db);
  for (const name of [...INDEXES].reverse()) await sql`drop index if exists ${sql.raw(name)}`.execute(db);
  await analyzeWhereAnalyzed(db, ['accounts_search']);
}
