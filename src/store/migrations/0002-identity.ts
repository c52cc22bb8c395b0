// Browser sessions and upstream (Google, Microsoft, SSO) sign-in attempts. Portable SQL only:
// ids and times come from TypeScript. Secrets (session ids, upstream `state`) are stored as keyed
// hashes; the cookie holds the only copy of the raw value.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('browser_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('upstream_issuer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addForeignKeyConstraint('browser_sessions_user', ['org_id', 'user_id'], 'users', ['org_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('browser_sessions_user').on('browser_sessions').columns(['org_id', 'user_id']).execute();
  await db.schema.createIndex('browser_sessions_expiry').on('browser_sessions').columns(['expires_at']).execute();

  // One row per upstream authorization request: single-use, bound to the browser by a cookie,
  // ≤ 10 minutes (RFC 9700 §4.7: state binds the response to the user agent that started it).
  await db.schema
    .createTable('upstream_login_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('sso_org_id', 'text')
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text')
    .addColumn('signup_source', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upstream_login_states_expiry').on('upstream_login_states').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upstream_login_states').ifExists().execute();
  await db.schema.dropTable('browser_sessions').ifExists().execute();
}
