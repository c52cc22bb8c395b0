// POST /oauth/revoke (RFC 7009). The token's prefix says what it is; token_type_hint is only a hint
// (AS-68). A refresh token revokes its whole grant, an access token itself (AS-67). Unknown tokens
// and other clients' tokens get the same empty 200 (RFC 7009 §2.2, AS-65, AS-66).
import { Hono, type Context } from 'hono';
import type { AppContext, AppEnv } from '../http/context.ts';
import { findAccessTokenGrant, findRefreshToken, revokeAccessToken, revokeGrant } from '../store/oauth-grants.ts';
import type { OAuthClient } from '../store/oauth-clients.ts';
import { now } from '../store/ids.ts';
import { audit } from './audit.ts';
import { authenticateClient, readCredentials } from './clients/client-auth.ts';
import { noStore, openCors } from './http/headers.ts';
import { formParams, required } from './http/params.ts';
import { enforce, limitByIp, type OAuthLimiters } from './http/rate-limits.ts';
import { keyedHash, looksLike } from './secrets.ts';

async function revokeAccess(ctx: AppContext, c: Context<AppEnv>, client: OAuthClient, hash: string): Promise<void> {
  const grant = await findAccessTokenGrant(ctx.store.db, hash);
  if (!grant || grant.clientId !== client.clientId) return;
  await revokeAccessToken(ctx.store.db, hash, now());
  await audit(ctx, c, { kind: 'token_revoked', orgId: grant.orgId, userId: grant.userId, clientId: grant.clientId, detail: { grant_id: grant.id, token_type: 'access_token' } });
}

async function revokeRefresh(ctx: AppContext, c: Context<AppEnv>, client: OAuthClient, hash: string): Promise<void> {
  const rt = await findRefreshToken(ctx.store.db, hash);
  if (!rt || rt.grant.clientId !== client.clientId) return;
  if (await revokeGrant(ctx.store.db, rt.grant.id, 'revoked_by_client', now())) {
    await audit(ctx, c, { kind: 'grant_revoked', orgId: rt.grant.orgId, userId: rt.grant.userId, clientId: rt.grant.clientId, detail: { grant_id: rt.grant.id, by: 'client' } });
  }
}

export function revocationRoutes(ctx: AppContext, limits: OAuthLimiters): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('/oauth/revoke', openCors(), noStore());
  app.post('/oauth/revoke', limitByIp({ limiter: limits.perIp }), async (c) => {
    const params = await formParams(c);
    const credentials = readCredentials(c, params);
    await enforce(limits.perClient, credentials.clientId);
    const { client } = await authenticateClient(ctx, credentials);
    const token = required(params, 'token');
    const hash = keyedHash(ctx.config.secrets.hash, token);
    if (looksLike('access', token)) await revokeAccess(ctx, c, client, hash);
    else if (looksLike('refresh', token)) await revokeRefresh(ctx, c, client, hash);
    return c.body(null, 200);
  });
  return app;
}
