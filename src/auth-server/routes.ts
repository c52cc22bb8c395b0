// Every route of the authorization server, mounted by src/http/app.ts with one line. The browser
// routes (authorize, consent, connected apps) need the identity service; the rest do not.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../http/context.ts';
import type { BrowserIdentity } from '../identity/contract.ts';
import { authorizeRoutes } from './authorize/routes.ts';
import { connectedAppsRoutes } from './connected-apps/routes.ts';
import { oauthLimiters } from './http/rate-limits.ts';
import { oauthBodyLimit } from './http/body-limit.ts';
import { metadataRoutes } from './metadata.ts';
import { registrationRoutes } from './register/register.ts';
import { revocationRoutes } from './revoke.ts';
import { tokenRoutes } from './token.ts';

export function oauthRoutes(ctx: AppContext, identity: BrowserIdentity | undefined): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // One set of counters shared by the endpoints (and, with Redis, by every instance).
  const limits = oauthLimiters(ctx);
  app.use('/oauth/*', oauthBodyLimit());
  app.route('/', metadataRoutes(ctx));
  app.route('/', registrationRoutes(ctx, limits));
  app.route('/', tokenRoutes(ctx, limits));
  app.route('/', revocationRoutes(ctx, limits));
  if (identity) {
    app.route('/', authorizeRoutes(ctx, identity));
    app.route('/', connectedAppsRoutes(ctx, identity));
  }
  return app;
}
