// The one canonical resource (RFC 8707) and the one issuer string (RFC 8414 §3.3, RFC 9207): both
// derived from config.baseUrl, never from the Host header (AS-74), and used verbatim everywhere.
import type { Config } from '../config/load.ts';

export const issuerOf = (config: Config): string => config.baseUrl;
export const canonicalResource = (config: Config): string => `${config.baseUrl}/mcp`;

/** The canonical resource for an accepted spelling (with or without one trailing slash), or undefined. */
export function canonicalizeResource(config: Config, value: string): string | undefined {
  const canonical = canonicalResource(config);
  return value === canonical || value === `${canonical}/` ? canonical : undefined;
}

export const SUPPORTED_SCOPES = ['mcp', 'offline_access'] as const;
/** OIDC identity scopes some clients add by reflex (mcp-remote's fallback); dropped, not refused (P11). */
export const DROPPED_SCOPES = new Set(['openid', 'email', 'profile']);
