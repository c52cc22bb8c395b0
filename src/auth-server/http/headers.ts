// Small named middlewares for the OAuth endpoints.
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../../http/context.ts';

/** RFC 6749 §5.1 / AS-42: token and secret responses, errors included, are never cached. */
export function noStore(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
    c.res.headers.set('Pragma', 'no-cache');
  };
}

/**
 * Browser-based MCP clients (Inspector, web connectors) call metadata, register, token and revoke
 * cross-origin (P14). No cookies are involved, so `*` without credentials is safe. Never on
 * /oauth/authorize (AS-9).
 */
export function openCors(): MiddlewareHandler<AppEnv> {
  return cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'MCP-Protocol-Version'],
    exposeHeaders: ['WWW-Authenticate', 'Retry-After'],
    maxAge: 86400,
  });
}
