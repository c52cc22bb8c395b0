// Authorization codes, keyed by their HMAC hash. Redemption is one conditional UPDATE, so of any
// number of concurrent exchanges exactly one wins (RFC 9700 §4.5: single use).
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { OAuthCodesTable } from './oauth-schema.ts';

export type AuthorizationCode = {
  codeHash: string;
  clientId: string;
  orgId: string;
  userId: string;
  sessionId: string | null;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  resource: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
  grantId: string | null;
};

function toCode(r: OAuthCodesTable): AuthorizationCode {
  return {
    codeHash: r.code_hash,
    clientId: r.client_id,
    orgId: r.org_id,
    userId: r.user_id,
    sessionId: r.session_id,
    redirectUri: r.redirect_uri,
    codeChallenge: r.code_challenge,
    scope: r.scope,
    resource: r.resource,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    consumedAt: r.consumed_at,
    grantId: r.grant_id,
  };
}

export async function insertCode(db: Kysely<Database>, c: Omit<AuthorizationCode, 'consumedAt' | 'grantId'>): Promise<void> {
  await db
    .insertInto('oauth_codes')
    .values({
      code_hash: c.codeHash,
      client_id: c.clientId,
      org_id: c.orgId,
      user_id: c.userId,
      session_id: c.sessionId,
      redirect_uri: c.redirectUri,
      code_challenge: c.codeChallenge,
      scope: c.scope,
      resource: c.resource,
      created_at: c.createdAt,
      expires_at: c.expiresAt,
      consumed_at: null,
      grant_id: null,
    })
    .execute();
}

export async function findCode(db: Kysely<Database>, codeHash: string): Promise<AuthorizationCode | undefined> {
  const row = await db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
  return row && toCode(row);
}

/**
 * The atomic redemption, one compare-and-set: marks the code used and records the grant issued from
 * it (what a replay revokes). True for exactly one caller, and only while the code is unexpired.
 */
export async function redeemCode(db: Kysely<Database>, codeHash: string, grantId: string, at: number): Promise<boolean> {
  const r = await db
    .updateTable('oauth_codes')
    .set({ consumed_at: at, grant_id: grantId })
    .where('code_hash', '=', codeHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function deleteCodesExpiredBefore(db: Kysely<Database>, cutoff: number): Promise<number> {
  const r = await db.deleteFrom('oauth_codes').where('expires_at', '<', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
