// Registered OAuth clients (RFC 7591 dynamic registration, client ID metadata documents, first party).
// Secrets and registration access tokens are stored only as keyed hashes.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, OAuthClientsTable } from './schema.ts';
import { now } from './ids.ts';
import { uniquely } from './errors.ts';
import { prepare } from './prepared.ts';

export type TokenEndpointAuthMethod = OAuthClientsTable['token_endpoint_auth_method'];

export type OAuthClient = {
  clientId: string;
  kind: OAuthClientsTable['kind'];
  clientName: string | null;
  redirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  scope: string;
  secretHash: string | null;
  registrationTokenHash: string | null;
  applicationType: string | null;
  clientUri: string | null;
  logoUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  softwareId: string | null;
  softwareVersion: string | null;
  createdAt: number;
  lastUsedAt: number;
  metadataExpiresAt: number | null;
};

export type NewOAuthClient = Omit<OAuthClient, 'createdAt' | 'lastUsedAt'> & { createdAt?: number };

const StringList = z.array(z.string());
const list = (text: string) => StringList.parse(JSON.parse(text));

function toClient(row: OAuthClientsTable): OAuthClient {
  return {
    clientId: row.client_id,
    kind: row.kind,
    clientName: row.client_name,
    redirectUris: list(row.redirect_uris),
    grantTypes: list(row.grant_types),
    responseTypes: list(row.response_types),
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    scope: row.scope,
    secretHash: row.secret_hash,
    registrationTokenHash: row.registration_token_hash,
    applicationType: row.application_type,
    clientUri: row.client_uri,
    logoUri: row.logo_uri,
    policyUri: row.policy_uri,
    tosUri: row.tos_uri,
    softwareId: row.software_id,
    softwareVersion: row.software_version,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    metadataExpiresAt: row.metadata_expires_at,
  };
}

function toRow(c: NewOAuthClient, at: number): OAuthClientsTable {
  return {
    client_id: c.clientId,
    kind: c.kind,
    client_name: c.clientName,
    redirect_uris: JSON.stringify(c.redirectUris),
    grant_types: JSON.stringify(c.grantTypes),
    response_types: JSON.stringify(c.responseTypes),
    token_endpoint_auth_method: c.tokenEndpointAuthMethod,
    scope: c.scope,
    secret_hash: c.secretHash,
    registration_token_hash: c.registrationTokenHash,
    application_type: c.applicationType,
    client_uri: c.clientUri,
    logo_uri: c.logoUri,
    policy_uri: c.policyUri,
    tos_uri: c.tosUri,
    software_id: c.softwareId,
    software_version: c.softwareVersion,
    created_at: c.createdAt ?? at,
    updated_at: at,
    last_used_at: at,
    metadata_expires_at: c.metadataExpiresAt,
  };
}

export async function createClient(db: Kysely<Database>, client: NewOAuthClient): Promise<OAuthClient> {
  const row = toRow(client, now());
  await uniquely(`client ${client.clientId} already exists`, () => db.insertInto('oauth_clients').values(row).execute());
  return toClient(row);
}

/** Inserts or replaces a client whose metadata comes from elsewhere (a client ID metadata document). */
export async function upsertClient(db: Kysely<Database>, client: NewOAuthClient): Promise<OAuthClient> {
  const row = toRow(client, now());
  const { client_id, created_at, ...changes } = row;
  await db
    .insertInto('oauth_clients')
    .values(row)
    .onConflict((oc) => oc.column('client_id').doUpdateSet(changes))
    .execute();
  return (await findClient(db, client_id)) ?? toClient(row);
}

/**
 * Every column of oauth_clients, named rather than `*`: on SQLite a statement without `*` is read as
 * arrays into one object literal (sqlite.ts). This lookup, one per token request, took 23.0 µs in
 * node:sqlite under W4 with its own row objects, 16.7 with named columns. toClient's row type
 * keeps the list whole (a column left out fails the typecheck).
 */
const CLIENT_COLUMNS = [
  'client_id', 'kind', 'client_name', 'redirect_uris', 'grant_types', 'response_types', 'token_endpoint_auth_method', 'scope', 'secret_hash',
  'registration_token_hash', 'application_type', 'client_uri', 'logo_uri', 'policy_uri', 'tos_uri', 'software_id', 'software_version',
  'created_at', 'updated_at', 'last_used_at', 'metadata_expires_at',
] as const;

const findClientStatement = prepare<[string]>()((db, $) => db.selectFrom('oauth_clients').select(CLIENT_COLUMNS).where('client_id', '=', $<string>(0)));

export async function findClient(db: Kysely<Database>, clientId: string): Promise<OAuthClient | undefined> {
  // PostgreSQL refuses NUL in text (22021) where SQLite just finds nothing: no client id has one.
  if (clientId.includes('\u0000')) return undefined;
  const [row] = (await findClientStatement.execute(db, clientId)).rows;
  return row && toClient(row);
}

/** Marks a client as used (renews its garbage-collection lease). */
export async function touchClient(db: Kysely<Database>, clientId: string, at: number = now()): Promise<void> {
  await db.updateTable('oauth_clients').set({ last_used_at: at }).where('client_id', '=', clientId).execute();
}

/** The lease only has to outlive the 30-day collection of unused clients: renewed hourly on use, not per request. */
const CLIENT_LEASE_PRECISION_MS = 3600_000;

/** Records a use of the client when its lease is older than the precision above (else writes nothing), as touchGrant does for grants. */
export async function renewClientLease(db: Kysely<Database>, client: Pick<OAuthClient, 'clientId' | 'lastUsedAt'>, at: number): Promise<void> {
  if (at - client.lastUsedAt > CLIENT_LEASE_PRECISION_MS) await touchClient(db, client.clientId, at);
}

/** Removes dynamic clients unused since `cutoff`; returns how many. First-party clients are kept. */
export async function deleteClientsUnusedSince(db: Kysely<Database>, cutoff: number): Promise<number> {
  const r = await db.deleteFrom('oauth_clients').where('kind', '!=', 'first_party').where('last_used_at', '<', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
