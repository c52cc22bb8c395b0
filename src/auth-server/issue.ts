// Issuing: creates a grant and mints the token pair under it. Used by the code exchange, the refresh
// rotation (newTokenPair + storeTokenPair, inside its transaction) and by tests that need a real,
// revocable token.
import type { Kysely } from 'kysely';
import type { AppContext } from '../http/context.ts';
import type { Database } from '../store/schema.ts';
import { newId, now } from '../store/ids.ts';
import { insertAccessToken, insertGrant, insertRefreshToken, type AccessTokenRow, type Grant, type RefreshTokenRow } from '../store/oauth-grants.ts';
import { keyedHash, newSecret } from './secrets.ts';

/** RFC 6749 §5.1 plus `resource` (RFC 8707 §2.2, AS-43). */
export type TokenResponse = {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
  resource: string;
};

export type GrantInput = { userId: string; orgId: string; clientId: string; scopes: string[]; resource: string };

export type IssuedTokens = { accessToken: string; refreshToken: string; expiresIn: number; scope: string; grantId: string; response: TokenResponse };

/** A token pair made but not yet stored: the response and the rows that make it valid. */
export type TokenPair = { response: TokenResponse; access: AccessTokenRow; refresh: RefreshTokenRow };

/** Makes a new access token (with `scope`, which may narrow the grant's) and refresh token under a grant. */
export function newTokenPair(ctx: AppContext, grant: Grant, scope: string, at: number): TokenPair {
  const { oauth, secrets } = ctx.config;
  const accessToken = newSecret('access');
  const refreshToken = newSecret('refresh');
  return {
    response: { access_token: accessToken, token_type: 'Bearer', expires_in: oauth.accessTokenTtlSeconds, refresh_token: refreshToken, scope, resource: grant.resource },
    access: { tokenHash: keyedHash(secrets.hash, accessToken), orgId: grant.orgId, grantId: grant.id, scope, createdAt: at, expiresAt: at + oauth.accessTokenTtlSeconds * 1000 },
    // RT idle TTL, never beyond the grant's absolute cap (AS-50).
    refresh: { tokenHash: keyedHash(secrets.hash, refreshToken), orgId: grant.orgId, grantId: grant.id, createdAt: at, expiresAt: Math.min(at + oauth.refreshIdleTtlSeconds * 1000, grant.expiresAt) },
  };
}

/** Stores a pair's hashes (inside the caller's transaction). */
export async function storeTokenPair(db: Kysely<Database>, pair: TokenPair): Promise<void> {
  await insertAccessToken(db, pair.access);
  await insertRefreshToken(db, pair.refresh);
}

/** A new token pair under a grant, stored. */
export async function mintTokens(ctx: AppContext, db: Kysely<Database>, grant: Grant, scope: string, at: number): Promise<TokenResponse> {
  const pair = newTokenPair(ctx, grant, scope, at);
  await storeTokenPair(db, pair);
  return pair.response;
}

/** Creates the grant row (what revocation and connected apps act on). */
export async function createGrant(ctx: AppContext, db: Kysely<Database>, input: GrantInput, at: number): Promise<Grant> {
  const grant: Grant = {
    id: newId('grt', at),
    orgId: input.orgId,
    userId: input.userId,
    clientId: input.clientId,
    scope: input.scopes.join(' '),
    resource: input.resource,
    createdAt: at,
    lastUsedAt: at,
    expiresAt: at + ctx.config.oauth.refreshAbsoluteTtlSeconds * 1000,
    revokedAt: null,
  };
  await insertGrant(db, grant);
  return grant;
}

/** A real grant with a fresh token pair, in one transaction. */
export async function issueGrantTokens(ctx: AppContext, input: GrantInput): Promise<IssuedTokens> {
  const at = now();
  const { grant, response } = await ctx.store.db.transaction().execute(async (trx) => {
    const grant = await createGrant(ctx, trx, input, at);
    return { grant, response: await mintTokens(ctx, trx, grant, grant.scope, at) };
  });
  return { accessToken: response.access_token, refreshToken: response.refresh_token, expiresIn: response.expires_in, scope: response.scope, grantId: grant.id, response };
}
