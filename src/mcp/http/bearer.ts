// Bearer authentication for /mcp as one pipeline of named checks (RFC 6750, RFC 9728 §5.1):
// token present → token valid → audience is this endpoint → scope mcp → user and license usable.
import { VERIFIED_REUSE_MS, type AuthInfo, type TokenVerifier } from '../../access/auth-info.ts';
import { principalFromAuth, type Principal, type PrincipalResult } from '../../access/principal.ts';
import type { Store } from '../../store/database.ts';
import { reusedLookup, weakSlots } from '../../access/reused-lookup.ts';

export type Refusal = { status: 401 | 403; error: string; description: string; challenge: string | null };
export type Authenticated = { ok: true; auth: AuthInfo; principal: Principal };

const quote = (s: string) => s.replace(/["\\]/g, '');

/**
 * A principal is reused while the verified token it came from is (the verifier hands back the same
 * AuthInfo object while the token is unchanged), and never longer than VERIFIED_REUSE_MS from its
 * read: a disabled user, an expired license or a team change reaches every request within the same
 * bound as a revocation. Read once at a time, and again in the background while in use
 * (access/reused-lookup.ts); a background read that fails is logged, and the principal stays in
 * use until its bound.
 */
export type PrincipalSource = (auth: AuthInfo) => Promise<PrincipalResult>;

export function principalSource(store: Store, onBackgroundError: (error: unknown) => void): PrincipalSource {
  const reused = reusedLookup<AuthInfo, PrincipalResult>(weakSlots(), { reuseMs: VERIFIED_REUSE_MS, keep: (r) => r.ok, onBackgroundError });
  return (auth) => reused(auth, Date.now(), (at) => principalFromAuth(store.db, auth, at));
}

export function challenge(baseUrl: string, extra: Record<string, string> = {}): string {
  const params = { ...extra, resource_metadata: `${baseUrl}/.well-known/oauth-protected-resource/mcp`, scope: 'mcp' };
  return `Bearer ${Object.entries(params).map(([k, v]) => `${k}="${quote(v)}"`).join(', ')}`;
}

/** The token from `Authorization: Bearer …`; tokens in the query string are never read (RFC 9700 §2.1). */
export function bearerToken(header: string | undefined): string | undefined | null {
  if (header === undefined) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match ? match[1]! : null;
}

export async function authenticate(input: { header: string | undefined; verifier: TokenVerifier; principals: PrincipalSource; baseUrl: string }): Promise<Authenticated | Refusal> {
  const { baseUrl } = input;
  const token = bearerToken(input.header);
  if (token === undefined) {
    return { status: 401, error: 'invalid_request', description: 'This endpoint needs an OAuth access token: send Authorization: Bearer <token>.', challenge: challenge(baseUrl) };
  }
  const invalid = (description: string): Refusal => ({ status: 401, error: 'invalid_token', description, challenge: challenge(baseUrl, { error: 'invalid_token', error_description: description }) });
  if (token === null) return invalid('The Authorization header is not a Bearer token.');
  const check = await input.verifier.verify(token);
  if (!check.ok) return invalid(check.description);
  const auth = check.auth;
  // RFC 8707: only tokens issued for this endpoint are honoured.
  if (auth.resource !== `${baseUrl}/mcp`) return invalid('The access token was issued for another resource.');
  if (!auth.scopes.includes('mcp')) {
    const description = 'The access token lacks the "mcp" scope. Authorize again and grant the mcp scope.';
    return { status: 403, error: 'insufficient_scope', description, challenge: challenge(baseUrl, { error: 'insufficient_scope', error_description: description }) };
  }
  const result = await input.principals(auth);
  if (!result.ok) {
    if (result.reason === 'user_not_found') return invalid(result.message);
    return { status: 403, error: result.reason === 'user_disabled' ? 'user_disabled' : 'license_expired', description: result.message, challenge: null };
  }
  return { ok: true, auth, principal: result.principal };
}
