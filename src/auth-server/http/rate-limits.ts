// Rate limits on register, token and revoke (AS-39, AS-64): per client IP and per client_id, with
// high ceilings because hosted clients register from shared address ranges (P12). 429 + Retry-After.
import type { MiddlewareHandler } from 'hono';
import { clientAddress } from '../../http/client-address.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import type { RateLimiter } from '../../limits/index.ts';
import { TooManyRequests } from '../errors.ts';

export type OAuthLimiters = { registerPerIp: RateLimiter; registerGlobal: RateLimiter; perIp: RateLimiter; perClient: RateLimiter };

export function oauthLimiters(ctx: AppContext): OAuthLimiters {
  const { registerPerHour, requestsPerMinute } = ctx.config.oauth.rateLimits;
  return {
    registerPerIp: ctx.limits.limiter({ name: 'oauth-register-ip', points: registerPerHour, durationSeconds: 3600 }),
    registerGlobal: ctx.limits.limiter({ name: 'oauth-register-all', points: registerPerHour * 20, durationSeconds: 3600 }),
    perIp: ctx.limits.limiter({ name: 'oauth-ip', points: requestsPerMinute, durationSeconds: 60 }),
    perClient: ctx.limits.limiter({ name: 'oauth-client', points: requestsPerMinute, durationSeconds: 60 }),
  };
}

export async function enforce(limiter: RateLimiter, key: string): Promise<void> {
  const decision = await limiter.consume(key);
  if (!decision.allowed) throw new TooManyRequests(decision.retryAfterSeconds);
}

export function limitByIp(...limiters: { limiter: RateLimiter; key?: string }[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // The socket peer, or X-Forwarded-For only from TRUSTED_PROXIES (AS-74): a spoofable header never picks the bucket.
    const ip = clientAddress(c);
    for (const l of limiters) await enforce(l.limiter, l.key ?? ip);
    await next();
  };
}
