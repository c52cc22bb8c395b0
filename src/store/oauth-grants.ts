// Grants (one consented client + user + resource) and the access and refresh tokens issued under them.
// Tokens are keyed by their HMAC hash; a revoked grant makes every token under it dead, so revoking
// a grant is one UPDATE and verification joins the grant.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { OAuthGrantsTable } from './oauth-schema.ts';
import { prepare } from './prepared.ts';
import { deleteInSteps } from './delete-in-steps.ts';

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

/**
 * The columns a Grant is made of, named rather than `g.*`: on SQLite a statement without `*` is
 * read as arrays into one object literal (sqlite.ts). node:sqlite's own row objects made the
 * refresh grant's token lookup 26.5 µs in node:sqlite under W4, named columns 21.6.
 */
const GRANT_COLUMNS = ['g.id', 'g.org_id', 'g.user_id', 'g.client_id', 'g.scope', 'g.resource', 'g.created_at', 'g.last_used_at', 'g.expires_at', 'g.revoked_at'] as const;

function toGrant(row: Omit<OAuthGrantsTable, 'revoked_reason'>): Grant {
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

/** "Last used" on the connected-apps page is kept to this precision: one write per grant per minute at most. */
export const GRANT_LAST_USED_PRECISION_MS = 60_000;

/** Records a use of the grant when its "last used" is older than the precision above (else writes nothing). */
export async function touchGrant(db: Kysely<Database>, grant: Pick<Grant, 'id' | 'lastUsedAt'>, at: number): Promise<void> {
  if (at - grant.lastUsedAt <= GRANT_LAST_USED_PRECISION_MS) return;
  await db.updateTable('oauth_grants').set({ last_used_at: at }).where('id', '=', grant.id).execute();
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

export type AccessTokenRow = { tokenHash: string; orgId: string; grantId: string; scope: string; createdAt: number; expiresAt: number };

const insertAccessTokenStatement = prepare<[string, string, string, string, number, number]>()((db, $) =>
  db
    .insertInto('oauth_access_tokens')
    .values({ token_hash: $(0), org_id: $(1), grant_id: $(2), scope: $(3), created_at: $(4), expires_at: $(5), revoked_at: null }),
);

export async function insertAccessToken(db: Kysely<Database>, t: AccessTokenRow): Promise<void> {
  await insertAccessTokenStatement.execute(db, t.tokenHash, t.orgId, t.grantId, t.scope, t.createdAt, t.expiresAt);
}

export type LiveAccessToken = { grant: Grant; scope: string; expiresAt: number };

// A disabled user's token stays a valid token: the MCP endpoint refuses it with a 403 that says
// the account is disabled (AS-51 / issue 5), and refresh refuses its grant.
const findLiveAccessTokenStatement = prepare<[string, number]>()((db, $) =>
  db
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('oauth_grants as g', (j) => j.onRef('g.org_id', '=', 't.org_id').onRef('g.id', '=', 't.grant_id'))
    .select([...GRANT_COLUMNS, 't.scope as token_scope', 't.expires_at as token_expires_at'])
    .where('t.token_hash', '=', $<string>(0))
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', $<number>(1))
    .where('g.revoked_at', 'is', null),
);

/** The access token under this hash if it, and its grant, are live at `at`. */
export async function findLiveAccessToken(db: Kysely<Database>, tokenHash: string, at: number): Promise<LiveAccessToken | undefined> {
  const [row] = (await findLiveAccessTokenStatement.execute(db, tokenHash, at)).rows;
  return row && { grant: toGrant(row), scope: row.token_scope, expiresAt: row.token_expires_at };
}

/** The grant an access token belongs to, live or not (revocation looks tokens up this way). */
export async function findAccessTokenGrant(db: Kysely<Database>, tokenHash: string): Promise<Grant | undefined> {
  const row = await db
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('oauth_grants as g', (j) => j.onRef('g.org_id', '=', 't.org_id').onRef('g.id', '=', 't.grant_id'))
    .select(GRANT_COLUMNS)
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && toGrant(row);
}

export async function revokeAccessToken(db: Kysely<Database>, tokenHash: string, at: number): Promise<void> {
  await db.updateTable('oauth_access_tokens').set({ revoked_at: at }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute();
}

export type RefreshTokenRow = { tokenHash: string; orgId: string; grantId: string; createdAt: number; expiresAt: number };

const insertRefreshTokenStatement = prepare<[string, string, string, number, number]>()((db, $) =>
  db.insertInto('oauth_refresh_tokens').values({
    token_hash: $(0),
    org_id: $(1),
    grant_id: $(2),
    created_at: $(3),
    expires_at: $(4),
    rotated_at: null,
    request_fingerprint: null,
    grace_response_enc: null,
    revoked_at: null,
  }),
);

export async function insertRefreshToken(db: Kysely<Database>, t: RefreshTokenRow): Promise<void> {
  await insertRefreshTokenStatement.execute(db, t.tokenHash, t.orgId, t.grantId, t.createdAt, t.expiresAt);
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
  /** AS-51: the grant's user is disabled, so its grants stop working (a user row that is gone is the MCP side's concern: it answers 401). */
  userDisabled: boolean;
};

/**
 * A refresh token with its grant and whether the grant's user is active, in whatever state they
 * are (the caller decides what is dead): one indexed join, as the refresh grant runs on every
 * rotation.
 */
const findRefreshTokenStatement = prepare<[string]>()((db, $) =>
  db
    .selectFrom('oauth_refresh_tokens as r')
    .innerJoin('oauth_grants as g', (j) => j.onRef('g.org_id', '=', 'r.org_id').onRef('g.id', '=', 'r.grant_id'))
    .leftJoin('users as u', (j) => j.onRef('u.org_id', '=', 'g.org_id').onRef('u.id', '=', 'g.user_id'))
    .select([
      ...GRANT_COLUMNS,
      'r.token_hash as rt_token_hash',
      'r.created_at as rt_created_at',
      'r.expires_at as rt_expires_at',
      'r.rotated_at as rt_rotated_at',
      'r.request_fingerprint as rt_request_fingerprint',
      'r.grace_response_enc as rt_grace_response_enc',
      'r.revoked_at as rt_revoked_at',
      'u.status as user_status',
    ])
    .where('r.token_hash', '=', $<string>(0)),
);

export async function findRefreshToken(db: Kysely<Database>, tokenHash: string): Promise<RefreshToken | undefined> {
  const [row] = (await findRefreshTokenStatement.execute(db, tokenHash)).rows;
  if (!row) return undefined;
  return {
    tokenHash: row.rt_token_hash,
    grant: toGrant(row),
    createdAt: row.rt_created_at,
    expiresAt: row.rt_expires_at,
    rotatedAt: row.rt_rotated_at,
    requestFingerprint: row.rt_request_fingerprint,
    graceResponseEnc: row.rt_grace_response_enc,
    revokedAt: row.rt_revoked_at,
    userDisabled: row.user_status !== null && row.user_status !== 'active',
  };
}

/**
 * Compare-and-set: marks a live refresh token rotated, with the request's fingerprint and the
 * (sealed) response kept for the grace window, in one statement. Exactly one of any number of
 * concurrent callers gets true (a conditional UPDATE is atomic on both dialects).
 */
const markRefreshTokenRotatedStatement = prepare<[number, string, string | null, string, number]>()((db, $) =>
  db
    .updateTable('oauth_refresh_tokens')
    .set({ rotated_at: $(0), request_fingerprint: $(1), grace_response_enc: $(2) })
    .where('token_hash', '=', $<string>(3))
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', $<number>(4)),
);

export async function markRefreshTokenRotated(db: Kysely<Database>, tokenHash: string, fingerprint: string, graceResponseEnc: string | null, at: number): Promise<boolean> {
  const r = await markRefreshTokenRotatedStatement.execute(db, at, fingerprint, graceResponseEnc, tokenHash, at);
  return (r.numAffectedRows ?? 0n) > 0n;
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

/**
 * Expired tokens one statement deletes. On SQLite a statement holds the serving thread, so a backlog
 * (tables grown before the job deleted tokens) goes in steps, with requests answered between them:
 * ~20 ms a step at 1,000,000 tokens in a table (~90 ms for 1,000 rows; 500,000 rows in 40 s).
 */
export const EXPIRED_TOKEN_BATCH = 250;

/**
 * Deletes the access and refresh tokens whose own lifetime ended before `cutoff` (the housekeeping
 * job's; every read refuses them already); returns how many of each. A rotated refresh token is
 * kept as long as it would have lived, so presenting it again within that time still revokes its
 * grant (AS-48); after it, it answers invalid_grant as any unknown token does.
 */
export async function deleteTokensExpiredBefore(db: Kysely<Database>, cutoff: number): Promise<{ accessTokens: number; refreshTokens: number }> {
  return { accessTokens: await deleteExpired(db, 'oauth_access_tokens', cutoff), refreshTokens: await deleteExpired(db, 'oauth_refresh_tokens', cutoff) };
}

function deleteExpired(db: Kysely<Database>, table: 'oauth_access_tokens' | 'oauth_refresh_tokens', cutoff: number): Promise<number> {
  const expired = db.selectFrom(table).select('token_hash').where('expires_at', '<', cutoff).limit(EXPIRED_TOKEN_BATCH);
  return deleteInSteps(async () => Number((await db.deleteFrom(table).where('token_hash', 'in', expired).executeTakeFirst()).numDeletedRows), EXPIRED_TOKEN_BATCH);
}
