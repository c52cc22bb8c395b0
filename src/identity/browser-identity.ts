// BrowserIdentity (src/identity/contract.ts): who is in this browser, where to sign in, and CSRF
// tokens for POST forms. The authorization server consumes this and nothing else of identity.
import type { Context } from 'hono';
import type { AppContext } from '../http/context.ts';
import type { BrowserIdentity, SignedInUser } from './contract.ts';
import { identityCookies, type IdentityCookies } from './cookies.ts';
import { BROWSER_COOKIE_TTL_S } from './defaults.ts';
import { safeReturnTo } from './return-to.ts';
import { keyedHash, randomToken, TOKEN_SHAPE } from './secrets.ts';
import { constantTimeEqual } from '../crypto/constant-time.ts';
import { findSession, type Session } from './sessions.ts';

/** BrowserIdentity plus what identity's own routes need from the same place. */
export type IdentityService = BrowserIdentity & {
  cookies: IdentityCookies;
  /** The session behind this request's cookie (cached per request). */
  session(c: Context): Promise<Session | null>;
  /** A random per-browser value (cookie), created on first use: binds sign-in attempts and pre-session CSRF. */
  browserBinding(c: Context): string;
};

export function createBrowserIdentity(ctx: AppContext): IdentityService {
  const { config, store } = ctx;
  const hashKey = config.secrets.hash;
  const cookies = identityCookies(config.baseUrl);
  const cache = new WeakMap<Context, Promise<Session | null>>();

  const session = (c: Context) => {
    let hit = cache.get(c);
    if (!hit) {
      hit = findSession(store.db, hashKey, cookies.get(c, 'session'));
      cache.set(c, hit);
    }
    return hit;
  };

  // A value set during this request is remembered for the rest of it (the request's Cookie header
  // does not have it yet).
  const fresh = new WeakMap<Context, string>();
  const browserBinding = (c: Context) => {
    const existing = cookies.get(c, 'browser');
    if (existing && TOKEN_SHAPE.test(existing)) return existing;
    let value = fresh.get(c);
    if (!value) {
      value = randomToken();
      fresh.set(c, value);
      cookies.set(c, 'browser', value, BROWSER_COOKIE_TTL_S);
    }
    return value;
  };

  // A CSRF token is an HMAC of (binding, purpose): the session when signed in (so it changes at
  // sign-in), else the browser cookie. Nothing stored; verified in constant time.
  const csrfFor = async (c: Context, purpose: string) => {
    const s = await session(c);
    const binding = s ? `s:${s.idHash}` : `b:${browserBinding(c)}`;
    return keyedHash(hashKey, `csrf:${purpose}`, binding);
  };

  return {
    cookies,
    session,
    browserBinding,
    async currentUser(c: Context): Promise<SignedInUser | null> {
      const s = await session(c);
      if (!s) return null;
      return {
        userId: s.user.id,
        orgId: s.user.orgId,
        email: s.user.email,
        name: s.user.name,
        role: s.user.role,
        sessionId: s.idHash,
        upstreamIssuer: s.upstreamIssuer,
        authTime: s.createdAt,
      };
    },
    signInUrl(returnTo: string): string {
      const safe = safeReturnTo(returnTo);
      return `${config.baseUrl}/signin${safe ? `?return_to=${encodeURIComponent(safe)}` : ''}`;
    },
    issueCsrfToken: (c, purpose) => csrfFor(c, purpose),
    async verifyCsrfToken(c, purpose, token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 128) return false;
      return constantTimeEqual(await csrfFor(c, purpose), token);
    },
  };
}
