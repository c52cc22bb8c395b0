// Audit events are deleted after AUDIT_RETENTION_DAYS by the hourly housekeeping job, oldest first
// (store/audit-events.ts); this index finds them by time. Their time-ordered ids would too, but only
// where the database's collation sorts the id alphabet as its characters do (SQLite and "C" do;
// some PostgreSQL locales, Estonian or Danish for one, do not). New events land at the index's end.
//
// Plain CREATE INDEX (migrations run in one transaction): every audited write (token grants,
// consent, registration, revocation) waits until the migration commits; IF NOT EXISTS lets an
// operator build it beforehand with CREATE INDEX CONCURRENTLY on PostgreSQL (README, Upgrading).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists audit_events_created on audit_events (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists audit_events_created`.execute(db);
}
