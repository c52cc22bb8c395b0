// The contract between the authorization server (which issues and verifies access tokens) and
// the MCP endpoint (which only consumes them). Neither side sees the other's internals.

/** What a verified access token says. Times are epoch seconds (as in the MCP SDK's AuthInfo). */
export type AuthInfo = {
  token: string;
  userId: string;
  orgId: string;
  clientId: string;
  scopes: string[];
  /** The canonical resource the token is bound to (RFC 8707): `{BASE_URL}/mcp`. */
  resource: string;
  expiresAt: number;
};

/**
 * How long a verified token, and what the MCP side derives from it (the principal), may be reused
 * in process before the store is asked again: the bound within which a revocation, a disabled user
 * or an expired license reaches every instance.
 */
export const VERIFIED_REUSE_MS = 3000;

export type TokenCheck =
  | { ok: true; auth: AuthInfo }
  | { ok: false; error: 'invalid_token'; description: string };

export interface TokenVerifier {
  /** Constant-time lookup of a bearer token; revocation is effective within the cache bound. */
  verify(token: string): Promise<TokenCheck>;
}
