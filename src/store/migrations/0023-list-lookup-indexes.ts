// SQLite: what a meeting list reads of each meeting's owner, account and external participants, in
// indexes that hold it, so a page reads none of their rows. SQLite keeps a table with a text
// primary key as rows by rowid plus an index on the key: a lookup by key is two searches, the
// index's and the row's. A list_meetings page of 25 (W1) looks up 26 owners and accounts and reads
// its meetings' participants by meeting (sellers too, only to skip them), each through its row.
// With the owner's name and email, the account's domain and name, and the non-seller participants'
// shown columns in an index, each is one search, and sellers are not read at all (the partial
// index holds none; the statement names the side as its literal, and the index holds the side too,
// which SQLite 3.53 still reads to test the statement's condition).
// On W1's dataset (2-core Xeon, node:sqlite, medians of alternating runs on copies with and without
// these indexes): the page's statement ~85 → ~73 µs, its participants ~71–79 → ~57 µs (~92 µs with
// the side as a parameter: see sales/meeting-participants.ts); the service under W1's load
// 0.97–1.50× (median ~1.2×) the throughput over 8 alternating rounds, ~20% less CPU a request.
// The three indexes are ~2% of that database (34 MB of 1.6 GB), nearly all the participants'.
//
// Not on PostgreSQL: the same columns as INCLUDE indexes are read index-only (vacuumed), but W1's
// one statement ran 852 → 809 µs (medians of five alternations), within that machine's noise;
// there every statement is a round trip, and the rows it reads are a small part of it.
//
// Plain CREATE INDEX; statistics as 0014.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

const isSqlite = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof SqliteAdapter;

const INDEXES = ['users_id_name_email', 'accounts_id_domain_name', 'participants_external'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`create index users_id_name_email on users (org_id, id, name, email)`.execute(db);
  await sql`create index accounts_id_domain_name on accounts (org_id, id, domain, name)`.execute(db);
  await sql`create index participants_external on participants (org_id, meeting_id, id, side, name, email, company, title) where side <> 'seller'`.execute(db);
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length > 0) for (const name of INDEXES) await sql`analyze ${sql.raw(name)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  for (const name of [...INDEXES].reverse()) await sql`drop index if exists ${sql.raw(name)}`.execute(db);
}
