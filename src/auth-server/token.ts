// POST /oauth/token (RFC 6749 §3.2) as a pipeline: limits, parameters, client authentication,
// grant type, the client's permission to use it, then the grant module.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../http/context.ts';
import type { OAuthClient } from '../store/oauth-clients.ts';
import { authenticateClient, readCredentials } from './clients/client-auth.ts';
import { UnauthorizedClient, UnsupportedGrantType } from './errors.ts';
import { grantTypes } from './grants/index.ts';
import type { GrantType } from './grants/types.ts';
import { noStore, openCors } from './http/headers.ts';
import { formParams, required, type Params } from './http/params.ts';
import { enforce, limitByIp, type OAuthLimiters } from './http/rate-limits.ts';

function grantTypeOf(params: Params): GrantType {
  const name = required(params, 'grant_type');
  const grant = grantTypes.get(name);
  if (!grant) throw new UnsupportedGrantType(`grant_type ${name} is not supported (use authorization_code or refresh_token)`);
  return grant;
}

function checkClientMayUse(client: OAuthClient, grant: GrantType): void {
  if (!client.grantTypes.includes(grant.name)) throw new UnauthorizedClient(`This client is not registered for grant_type ${grant.name}`);
}

export function tokenRoutes(ctx: AppContext, limits: OAuthLimiters): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('/oauth/token', openCors(), noStore());
  app.post('/oauth/token', limitByIp({ limiter: limits.perIp }), async (c) => {
    const params = await formParams(c);
    const credentials = readCredentials(c, params);
    await enforce(limits.perClient, credentials.clientId);
    const grant = grantTypeOf(params);
    const { client } = await authenticateClient(ctx, credentials);
    checkClientMayUse(client, grant);
    return c.json(await grant.handle({ ctx, c, client, params }));
  });
  return app;
}
