// Access-token verification for the MCP side (contract: src/access/auth-info.ts). The token is
// looked up by its HMAC, so no stored secret is ever compared byte by byte (constant time). A
// verified token is reused in process for at most CACHE_MS from its lookup, which bounds how long
// a revocation takes to reach every instance.
import { VERIFIED_REUSE_MS, type AuthInfo, type TokenCheck, type TokenVerifier } from '../access/auth-info.ts';
import type { AppContext } from '../http/context.ts';
import { findLiveAccessToken, touchGrant } from '../store/oauth-grants.ts';
import { now } from '../store/ids.ts';
import { canonicalResource } from './resource.ts';
import { keyedHash, looksLike } from './secrets.ts';
import { boundedSlots, reusedLookup } from '../access/reused-lookup.ts';

export const CACHE_MS = VERIFIED_REUSE_MS;
const MAX_ENTRIES = 10_000;

const invalid = (description: string): TokenCheck => ({ ok: false, error: 'invalid_token', description });

const equal = <T>(a: T, b: T) => a === b;
/** How each field of AuthInfo is compared (a field added to AuthInfo must be added here: the type says so). */
const SAME: { [F in keyof AuthInfo]: (a: AuthInfo[F], b: AuthInfo[F]) => boolean } = {
  token: equal,
  userId: equal,
  orgId: equal,
  clientId: equal,
  resource: equal,
  expiresAt: equal,
  scopes: (a, b) => a.length === b.length && a.every((scope, i) => scope === b[i]),
};
const sameAuth = (a: AuthInfo, b: AuthInfo) => (Object.keys(SAME) as (keyof AuthInfo)[]).every((f) => (SAME[f] as (x: unknown, y: unknown) => boolean)(a[f], b[f]));

export function createTokenVerifier(ctx: AppContext): TokenVerifier {
  const resource = canonicalResource(ctx.config);
  // Looked up once at a time per token, and again in the background while in use (access/reused-lookup.ts).
  const reused = reusedLookup<string, TokenCheck>(boundedSlots(MAX_ENTRIES), {
    reuseMs: CACHE_MS,
    keep: (check) => check.ok,
    usableUntil: (check) => (check.ok ? check.auth.expiresAt * 1000 : 0),
    onBackgroundError: (error) => ctx.logger.warn({ err: error }, 'could not look up a token in use again'),
  });

  async function lookUp(token: string, hash: string, at: number, previous: TokenCheck | undefined): Promise<TokenCheck> {
    const live = await findLiveAccessToken(ctx.store.db, hash, at);
    if (!live) return invalid('The access token is unknown, expired or revoked');
    // RFC 8707 / AS-55: a token for another audience is not ours to honour.
    if (live.grant.resource !== resource) return invalid('The access token was issued for another resource');
    const auth: AuthInfo = {
      token,
      userId: live.grant.userId,
      orgId: live.grant.orgId,
      clientId: live.grant.clientId,
      scopes: live.scope.split(' ').filter(Boolean),
      resource: live.grant.resource,
      expiresAt: Math.floor(live.expiresAt / 1000),
    };
    touchGrant(ctx.store.db, live.grant, at).catch((error: unknown) => ctx.logger.warn({ err: error }, 'could not record grant use'));
    // Unchanged, the same object: what the MCP side keeps for it (the principal) is kept with it.
    return previous?.ok && sameAuth(previous.auth, auth) ? previous : { ok: true, auth };
  }

  return {
    async verify(token) {
      if (!looksLike('access', token)) return invalid('The access token is malformed');
      const hash = keyedHash(ctx.config.secrets.hash, token);
      return reused(hash, now(), (at, previous) => lookUp(token, hash, at, previous));
    },
  };
}
