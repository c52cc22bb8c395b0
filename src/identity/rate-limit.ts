// Sign-in starts write an upstream-state row each, so they are rate-limited per client address
// (X-Forwarded-For only from configured trusted proxies, AS-74: see src/http/client-address.ts).
import type { MiddlewareHandler } from 'hono';
import { clientAddress } from '../http/client-address.ts';
import type { AppContext, AppEnv } from '../http/context.ts';
import { html, renderPage } from '../http/html.ts';
import { SIGN_IN_STARTS_PER_MINUTE } from './defaults.ts';

export function limitSignInStarts(ctx: AppContext): MiddlewareHandler<AppEnv> {
  const limiter = ctx.limits.limiter({ name: 'identity-sign-in-start', points: SIGN_IN_STARTS_PER_MINUTE, durationSeconds: 60 });
  return async (c, next) => {
    const decision = await limiter.consume(clientAddress(c));
    if (decision.allowed) return next();
    c.header('Retry-After', String(decision.retryAfterSeconds));
    return renderPage(c, {
      title: 'Too many sign-in attempts · Agent Access',
      noindex: true,
      status: 429,
      body: html`<h1>Too many sign-in attempts</h1><p>Wait ${decision.retryAfterSeconds} seconds, then <a href="/signin">try again</a>.</p>`,
    });
  };
}
