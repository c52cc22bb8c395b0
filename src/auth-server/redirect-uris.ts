// Redirect URI rules: what may be registered (AS-4, AS-5, AS-6, AS-63), what may be used at the
// authorization endpoint (P3 policy), and how a requested URI matches a registered one (AS-1, AS-2).

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::(\d{1,5}))?([/?].*)?$/;
const FORBIDDEN_SCHEMES = new Set(['javascript', 'data', 'file', 'vbscript', 'blob', 'about', 'ftp', 'ws', 'wss']);
export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2048;

/** Loopback split into host and the rest (path + query): the parts that must be byte-equal. */
function loopbackParts(uri: string): { host: string; rest: string } | undefined {
  const m = LOOPBACK.exec(uri);
  return m ? { host: m[1] ?? '', rest: m[3] ?? '' } : undefined;
}

export const isLoopbackRedirect = (uri: string): boolean => loopbackParts(uri) !== undefined;

/** Why a URI may not be registered, or undefined when it may. */
export function registrationProblem(uri: string): string | undefined {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `redirect_uris entries are limited to ${MAX_REDIRECT_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect_uris entry is not an absolute URI: ${uri.slice(0, 100)}`;
  }
  // RFC 6749 §3.1.2: no fragment component (an empty `#` counts too).
  if (uri.includes('#')) return 'redirect_uris entries must not contain a fragment';
  if (url.username || url.password) return 'redirect_uris entries must not contain credentials';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return undefined;
  // RFC 8252 §7.3 / AS-4: plain http only to the loopback interface.
  if (scheme === 'http') return isLoopbackRedirect(uri) ? undefined : 'http redirect_uris are allowed only for loopback hosts (127.0.0.1, [::1], localhost)';
  if (FORBIDDEN_SCHEMES.has(scheme)) return `redirect_uris scheme ${scheme}: is not allowed`;
  // Private-use schemes (cursor://, vscode://) are stored; at authorize only the allowlisted ones are followed (AS-6, P3).
  return undefined;
}

/**
 * P3 policy: the private-use redirect URIs followed at authorize, by exact match. Cursor registers and
 * uses `cursor://…` (next to https and loopback ones). A private-use scheme can be claimed by any app on
 * the device (RFC 8252 §8.6) — the same trust as a loopback port — and PKCE S256, required of every
 * client, makes an intercepted code useless (RFC 8252 §8.1); the consent page warns as for loopback.
 * Any other private-use URI stays stored but refused (AS-6).
 */
export const ALLOWED_PRIVATE_USE_REDIRECTS: ReadonlySet<string> = new Set(['cursor://anysphere.cursor-mcp/oauth/callback']);

export const isAllowedPrivateUseRedirect = (uri: string): boolean => ALLOWED_PRIVATE_USE_REDIRECTS.has(uri);

/** P3 policy at the authorization endpoint: https, loopback http and the allowlisted private-use URIs. */
export function usableForRedirect(uri: string): boolean {
  return uri.startsWith('https://') || isLoopbackRedirect(uri) || isAllowedPrivateUseRedirect(uri);
}

/**
 * AS-1/AS-2: byte-equal to a registered URI, except that for loopback http the port may differ
 * (RFC 8252 §7.3), including when the registered URI has none. Host, path and query stay byte-equal.
 */
export function matchesRegistered(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const req = loopbackParts(requested);
  if (!req) return false;
  return registered.some((r) => {
    const reg = loopbackParts(r);
    return reg !== undefined && reg.host === req.host && reg.rest === req.rest;
  });
}
