// Access-token verification for the MCP side (contract: src/access/auth-info.ts). The token is
// looked up by its HMAC, so no stored secret is ever compared byte by byte (constant time). A
// verified token is cached in process for at most CACHE_MS, which bounds how long a revocation
// takes to reach every instance.
import { VERIFIED_REUSE_MS, type AuthInfo, type TokenCheck, type TokenVerifier } from '../access/auth-info.ts';
import type { AppContext } from '../http/context.ts';
import { findLiveAccessToken, touchGrant } from '../store/oauth-grants.ts';
import { now } from '../store/ids.ts';
import { canonicalResource } from './resource.ts';
import { keyedHash, looksLike } from './secrets.ts';

export const CACHE_MS = VERIFIED_REUSE_MS;
const MAX_ENTRIES = 10_000;

const invalid = (description: string): TokenCheck => ({ ok: false, error: 'invalid_token', description });

export function createTokenVerifier(ctx: AppContext): TokenVerifier {
  const cache = new Map<string, { auth: AuthInfo; until: number }>();
  const resource = canonicalResource(ctx.config);

  return {
    async verify(token) {
      if (!looksLike('access', token)) return invalid('The access token is malformed');
      const hash = keyedHash(ctx.config.secrets.hash, token);
      const at = now();
      const hit = cache.get(hash);
      if (hit && hit.until > at && hit.auth.expiresAt * 1000 > at) return { ok: true, auth: hit.auth };
      cache.delete(hash);

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
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(hash, { auth, until: at + CACHE_MS });
      return { ok: true, auth };
    },
  };
}
