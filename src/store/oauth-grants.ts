// Grants (one consented client + user + resource) and the access and refresh tokens issued under them.
// Tokens are keyed by their HMAC hash; a revoked grant makes every token under it dead, so revoking
// a grant is one UPDATE and verification joins the grant.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { OAuthGrantsTable, OAuthRefreshTokensTable } from './oauth-schema.ts';

export type Grant = {
  id: string;
  orgId: string;
  userId: string;
  clientId: string;
  scope: string;
  resource: string;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
  revokedAt: number | null;
};

function toGrant(row: OAuthGrantsTable): Grant {
  return {
    id: row.id,
    orgId: row.org_id,
    userId: row.user_id,
    clientId: row.client_id,
    scope: row.scope,
    resource: row.resource,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

export async function insertGrant(db: Kysely<Database>, g: Omit<Grant, 'revokedAt'>): Promise<void> {
  await db
    .insertInto('oauth_grants')
    .values({
      org_id: g.orgId,
      id: g.id,
      user_id: g.userId,
      client_id: g.clientId,
      scope: g.scope,
      resource: g.resource,
      created_at: g.createdAt,
      last_used_at: g.lastUsedAt,
      expires_at: g.expiresAt,
      revoked_at: null,
      revoked_reason: null,
    })
    .execute();
}

export async function findGrant(db: Kysely<Database>, id: string): Promise<Grant | undefined> {
  const row = await db.selectFrom('oauth_grants').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toGrant(row);
}

/** Revokes a live grant (and so every token under it). Returns false when it was already revoked or unknown. */
export async function revokeGrant(db: Kysely<Database>, id: string, reason: string, at: number): Promise<boolean> {
  const r = await db
    .updateTable('oauth_grants')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function touchGrant(db: Kysely<Database>, id: string, at: number): Promise<void> {
  await db.updateTable('oauth_grants').set({ last_used_at: at }).where('id', '=', id).execute();
}

export type GrantListing = Grant & { clientName: string | null; userEmail: string | null };

/** Live grants, newest first, for one user or (userId omitted) a whole organization. */
export async function listLiveGrants(db: Kysely<Database>, orgId: string, userId: string | undefined, at: number): Promise<GrantListing[]> {
  let q = db
    .selectFrom('oauth_grants as g')
    .leftJoin('oauth_clients as c', 'c.client_id', 'g.client_id')
    .leftJoin('users as u', (j) => j.onRef('u.org_id', '=', 'g.org_id').onRef('u.id', '=', 'g.user_id'))
    .selectAll('g')
    .select(['c.client_name', 'u.email as user_email'])
    .where('g.org_id', '=', orgId)
    .where('g.revoked_at', 'is', null)
    .where('g.expires_at', '>', at);
  if (userId) q = q.where('g.user_id', '=', userId);
  const rows = await q.orderBy('g.created_at', 'desc').limit(500).execute();
  return rows.map((r) => ({ ...toGrant(r), clientName: r.client_name, userEmail: r.user_email }));
}

/** AS-51: a disabled user's grants stop working (users unknown to this store are not judged here). */
export async function userIsDisabled(db: Kysely<Database>, orgId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('status').where('org_id', '=', orgId).where('id', '=', userId).executeTakeFirst();
  return row !== undefined && row.status !== 'active';
}

export type AccessTokenRow = { tokenHash: string; orgId: string; grantId: string; scope: string; createdAt: number; expiresAt: number };

export async function insertAccessToken(db: Kysely<Database>, t: AccessTokenRow): Promise<void> {
  await db
    .insertInto('oauth_access_tokens')
    .values({ token_hash: t.tokenHash, org_id: t.orgId, grant_id: t.grantId, scope: t.scope, created_at: t.createdAt, expires_at: t.expiresAt, revoked_at: null })
    .execute();
}

export type LiveAccessToken = { grant: Grant; scope: string; expiresAt: number };

/** The access token under this hash if it, and its grant, are live at `at`. */
export async function findLiveAccessToken(db: Kysely<Database>, tokenHash: string, at: number): Promise<LiveAccessToken | undefined> {
  const row = await db
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('oauth_grants as g', (j) => j.onRef('g.org_id', '=', 't.org_id').onRef('g.id', '=', 't.grant_id'))
    .selectAll('g')
    .select(['t.scope as token_scope', 't.expires_at as token_expires_at'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', at)
    .where('g.revoked_at', 'is', null)
    // A disabled user's token stays a valid token: the MCP endpoint refuses it with a 403 that
    // says the account is disabled (AS-51 / issue 5), and refresh refuses its grant.
    .executeTakeFirst();
  return row && { grant: toGrant(row), scope: row.token_scope, expiresAt: row.token_expires_at };
}

/** The grant an access token belongs to, live or not (revocation looks tokens up this way). */
export async function findAccessTokenGrant(db: Kysely<Database>, tokenHash: string): Promise<Grant | undefined> {
  const row = await db
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('oauth_grants as g', (j) => j.onRef('g.org_id', '=', 't.org_id').onRef('g.id', '=', 't.grant_id'))
    .selectAll('g')
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && toGrant(row);
}

export async function revokeAccessToken(db: Kysely<Database>, tokenHash: string, at: number): Promise<void> {
  await db.updateTable('oauth_access_tokens').set({ revoked_at: at }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute();
}

export type RefreshTokenRow = { tokenHash: string; orgId: string; grantId: string; createdAt: number; expiresAt: number };

export async function insertRefreshToken(db: Kysely<Database>, t: RefreshTokenRow): Promise<void> {
  await db
    .insertInto('oauth_refresh_tokens')
    .values({
      token_hash: t.tokenHash,
      org_id: t.orgId,
      grant_id: t.grantId,
      created_at: t.createdAt,
      expires_at: t.expiresAt,
      rotated_at: null,
      request_fingerprint: null,
      grace_response_enc: null,
      revoked_at: null,
    })
    .execute();
}

export type RefreshToken = {
  tokenHash: string;
  grant: Grant;
  createdAt: number;
  expiresAt: number;
  rotatedAt: number | null;
  requestFingerprint: string | null;
  graceResponseEnc: string | null;
  revokedAt: number | null;
};

function toRefresh(row: OAuthRefreshTokensTable, grant: Grant): RefreshToken {
  return {
    tokenHash: row.token_hash,
    grant,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    rotatedAt: row.rotated_at,
    requestFingerprint: row.request_fingerprint,
    graceResponseEnc: row.grace_response_enc,
    revokedAt: row.revoked_at,
  };
}

/** A refresh token and its grant, in whatever state they are (the caller decides what is dead). */
export async function findRefreshToken(db: Kysely<Database>, tokenHash: string): Promise<RefreshToken | undefined> {
  const row = await db.selectFrom('oauth_refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!row) return undefined;
  const grant = await db.selectFrom('oauth_grants').selectAll().where('org_id', '=', row.org_id).where('id', '=', row.grant_id).executeTakeFirst();
  return grant && toRefresh(row, toGrant(grant));
}

/**
 * Compare-and-set: marks a live refresh token rotated. Exactly one of any number of concurrent
 * callers gets true (a conditional UPDATE is atomic on both dialects).
 */
export async function markRefreshTokenRotated(db: Kysely<Database>, tokenHash: string, fingerprint: string, at: number): Promise<boolean> {
  const r = await db
    .updateTable('oauth_refresh_tokens')
    .set({ rotated_at: at, request_fingerprint: fingerprint })
    .where('token_hash', '=', tokenHash)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function setGraceResponse(db: Kysely<Database>, tokenHash: string, sealed: string): Promise<void> {
  await db.updateTable('oauth_refresh_tokens').set({ grace_response_enc: sealed }).where('token_hash', '=', tokenHash).execute();
}

/** Forgets grace-window responses older than the window (they must not outlive it). */
export async function clearGraceResponses(db: Kysely<Database>, rotatedBefore: number): Promise<number> {
  const r = await db
    .updateTable('oauth_refresh_tokens')
    .set({ grace_response_enc: null })
    .where('grace_response_enc', 'is not', null)
    .where('rotated_at', '<', rotatedBefore)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
