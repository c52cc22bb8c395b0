// Liveness and readiness for load balancers and orchestrators.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from './context.ts';

export function healthRoutes(ctx: AppContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // The process is up and serving HTTP; says nothing about its dependencies.
  app.get('/healthz', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  });

  // Ready to serve traffic: the database answers. Redis being down does not make an instance
  // unready (limits fall back to memory), but it is reported.
  app.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    const [database, limits] = await Promise.all([
      ctx.store.ping(2000).then(
        () => 'ok' as const,
        (error: unknown) => {
          c.get('log').warn({ err: error instanceof Error ? error.message : String(error) }, 'readiness: database unreachable');
          return 'down' as const;
        },
      ),
      ctx.limits.health(),
    ]);
    const body = { status: database === 'ok' ? 'ok' : 'unavailable', database, limits: { kind: ctx.limits.kind, status: limits } };
    if (database !== 'ok') c.header('Retry-After', '5');
    return c.json(body, database === 'ok' ? 200 : 503);
  });

  return app;
}
