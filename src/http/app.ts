// The one app assembly: every route of the service is mounted here, behind the same middlewares.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from './context.ts';
import { onError } from './errors.ts';
import { accessLog, formBodyLimit, requestId, securityHeaders } from './middleware.ts';
import { clientAddressMiddleware } from './client-address.ts';
import { healthRoutes } from './health.ts';
import { createBrowserIdentity, identityRoutes } from '../identity/index.ts';
import { createTokenVerifier, oauthRoutes } from '../auth-server/index.ts';
import { mcpRoutes } from '../mcp/index.ts';
import { conformanceRoutes } from '../mcp/test-mode/routes.ts';
import { hostRouting, siteNotFound, siteRoutes } from '../site/index.ts';

export async function createApp(ctx: AppContext): Promise<Hono<AppEnv>> {
  const app = new Hono<AppEnv>();
  app.use(requestId(ctx.logger));
  app.use(clientAddressMiddleware(ctx.config.trustedProxies));
  app.use(accessLog(ctx.logger));
  app.use(securityHeaders({ https: ctx.config.baseUrl.startsWith('https://') }));
  app.use(formBodyLimit());
  // SITE_URL ≠ BASE_URL: site routes on the site host, API routes on the API host (site.md).
  app.use(hostRouting(ctx.config));

  app.route('/', healthRoutes(ctx));
  const identity = createBrowserIdentity(ctx);
  app.route('/', await identityRoutes(ctx, identity));
  app.route('/', oauthRoutes(ctx, identity));
  app.route('/', mcpRoutes(ctx, createTokenVerifier(ctx)));
  if (ctx.config.conformanceMode) app.route('/', conformanceRoutes(ctx));

  // The site is mounted last so it never shadows an API route.
  app.route('/', siteRoutes(ctx));

  app.notFound(siteNotFound(ctx.config));
  app.onError(onError);
  return app;
}
