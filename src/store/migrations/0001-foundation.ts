// Tenancy, people and OAuth clients. Portable SQL only: ids and times come from TypeScript,
// times are epoch milliseconds (bigint), booleans are 0/1 integers, lists are JSON text.
// Tenant tables carry org_id first in their primary key and in every index (distributable by org).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('trial_ends_at', 'bigint')
    .addColumn('seats', 'integer')
    .addColumn('auto_join_by_domain', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('restrict_meeting_details_to_participants', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sso_issuer', 'text')
    .addColumn('sso_client_id', 'text')
    .addColumn('sso_client_secret_enc', 'text')
    .addColumn('sso_domains', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // A verified email domain belongs to exactly one organization.
  await db.schema
    .createTable('org_domains')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('org_domains_org').on('org_domains').columns(['org_id', 'domain']).execute();

  await db.schema
    .createTable('users')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('signup_source', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'bigint')
    .addPrimaryKeyConstraint('users_pk', ['org_id', 'id'])
    .execute();
  await db.schema.createIndex('users_org_email').on('users').columns(['org_id', 'email']).unique().execute();

  // Users are keyed on the upstream identity (issuer, subject), never on email.
  await db.schema
    .createTable('user_identities')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_identities_pk', ['issuer', 'subject'])
    .addForeignKeyConstraint('user_identities_user', ['org_id', 'user_id'], 'users', ['org_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('user_identities_user').on('user_identities').columns(['org_id', 'user_id']).execute();

  await db.schema
    .createTable('teams')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parent_team_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('teams_pk', ['org_id', 'id'])
    .execute();
  await db.schema.createIndex('teams_org_name').on('teams').columns(['org_id', 'name', 'id']).execute();
  await db.schema.createIndex('teams_org_parent').on('teams').columns(['org_id', 'parent_team_id']).execute();

  await db.schema
    .createTable('team_members')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('is_manager', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['org_id', 'team_id', 'user_id'])
    .addForeignKeyConstraint('team_members_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('team_members_user', ['org_id', 'user_id'], 'users', ['org_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').columns(['org_id', 'user_id']).execute();

  // OAuth clients are not tenant data: registration is open (RFC 7591) and a client serves any org.
  await db.schema
    .createTable('oauth_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('client_name', 'text')
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('grant_types', 'text', (c) => c.notNull())
    .addColumn('response_types', 'text', (c) => c.notNull())
    .addColumn('token_endpoint_auth_method', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text')
    .addColumn('registration_token_hash', 'text')
    .addColumn('application_type', 'text')
    .addColumn('client_uri', 'text')
    .addColumn('logo_uri', 'text')
    .addColumn('policy_uri', 'text')
    .addColumn('tos_uri', 'text')
    .addColumn('software_id', 'text')
    .addColumn('software_version', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('metadata_expires_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_clients_last_used').on('oauth_clients').columns(['last_used_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['oauth_clients', 'team_members', 'teams', 'user_identities', 'users', 'org_domains', 'organizations']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
