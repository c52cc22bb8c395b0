// Expired access and refresh tokens are deleted by the hourly housekeeping job (auth-server/jobs.ts);
// before, nothing deleted them and both tables grew by a row each per refresh, forever. These
// indexes find the expired rows without reading the tables. A token's expiry is its creation plus
// a fixed lifetime (or its grant's end, for a refresh token), so new rows land at the index's end:
// one page more per commit, shared by every token in it.
//
// Plain CREATE INDEX (migrations run in one transaction): token requests wait while it is built,
// one read of each token table.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index oauth_access_tokens_expiry on oauth_access_tokens (expires_at)`.execute(db);
  await sql`create index oauth_refresh_tokens_expiry on oauth_refresh_tokens (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists oauth_refresh_tokens_expiry`.execute(db);
  await sql`drop index if exists oauth_access_tokens_expiry`.execute(db);
}
