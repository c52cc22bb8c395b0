// The one app assembly: every route of the service is mounted here, behind the same middlewares.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from './context.ts';
import { onError, notFound } from './errors.ts';
import { accessLog, requestId, securityHeaders } from './middleware.ts';
import { healthRoutes } from './health.ts';

export function createApp(ctx: AppContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId(ctx.logger));
  app.use(accessLog());
  app.use(securityHeaders({ https: ctx.config.baseUrl.startsWith('https://') }));

  app.route('/', healthRoutes(ctx));

  app.notFound(notFound);
  app.onError(onError);
  return app;
}
