// The identity cookies. On https they carry the `__Host-` prefix (RFC 6265bis §4.1.3.2: Secure,
// Path=/, no Domain); plain http://localhost in development drops the prefix and `Secure`, which
// browsers would otherwise refuse to store.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

export type CookieNames = { session: string; browser: string };

export type IdentityCookies = {
  names: CookieNames;
  get(c: Context, which: keyof CookieNames): string | undefined;
  set(c: Context, which: keyof CookieNames, value: string, maxAgeSeconds: number): void;
  clear(c: Context, which: keyof CookieNames): void;
};

export function identityCookies(baseUrl: string): IdentityCookies {
  const secure = baseUrl.startsWith('https://');
  const prefix = secure ? '__Host-' : '';
  const names: CookieNames = { session: `${prefix}aas_session`, browser: `${prefix}aas_browser` };
  const options = { path: '/', httpOnly: true, secure, sameSite: 'Lax' as const };
  return {
    names,
    get: (c, which) => getCookie(c, names[which]),
    set: (c, which, value, maxAgeSeconds) =>
      setCookie(c, names[which], value, { ...options, maxAge: maxAgeSeconds }),
    clear: (c, which) => deleteCookie(c, names[which], { ...options }),
  };
}
