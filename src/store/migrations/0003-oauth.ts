// The authorization server's state: grants (one per consented client and user), authorization codes,
// access and refresh tokens, remembered consents, pending authorization requests and the audit log.
// Portable SQL only (ids and times from TypeScript). Tokens, codes and handles are stored only as
// HMAC-SHA-256 hashes; a grant carries org_id first in its key like every tenant table.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_grants')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoked_reason', 'text')
    .addPrimaryKeyConstraint('oauth_grants_pk', ['org_id', 'id'])
    .execute();
  await db.schema.createIndex('oauth_grants_user').on('oauth_grants').columns(['org_id', 'user_id', 'created_at']).execute();
  await db.schema.createIndex('oauth_grants_client').on('oauth_grants').columns(['client_id']).execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('grant_id', 'text')
    .execute();
  await db.schema.createIndex('oauth_codes_expires').on('oauth_codes').columns(['expires_at']).execute();

  await db.schema
    .createTable('oauth_access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_access_tokens_grant').on('oauth_access_tokens').columns(['org_id', 'grant_id']).execute();

  // A rotated refresh token keeps its row for reuse detection; for the grace window only it holds the
  // response it was rotated into, encrypted, so an identical retry gets the same answer.
  await db.schema
    .createTable('oauth_refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_at', 'bigint')
    .addColumn('request_fingerprint', 'text')
    .addColumn('grace_response_enc', 'text')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_refresh_tokens_grant').on('oauth_refresh_tokens').columns(['org_id', 'grant_id']).execute();

  await db.schema
    .createTable('oauth_consents')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_consents_pk', ['org_id', 'user_id', 'client_id', 'redirect_uri', 'resource'])
    .execute();
  await db.schema.createIndex('oauth_consents_client').on('oauth_consents').columns(['client_id']).execute();

  // A validated authorization request waiting for sign-in and consent, under an opaque handle.
  await db.schema
    .createTable('oauth_pending_requests')
    .addColumn('handle_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_pending_requests_expires').on('oauth_pending_requests').columns(['expires_at']).execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('client_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_org').on('audit_events').columns(['org_id', 'created_at']).execute();
  await db.schema.createIndex('audit_events_kind').on('audit_events').columns(['kind', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['audit_events', 'oauth_pending_requests', 'oauth_consents', 'oauth_refresh_tokens', 'oauth_access_tokens', 'oauth_codes', 'oauth_grants']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
