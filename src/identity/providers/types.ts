// What every upstream provider gives the sign-up step: a verified upstream identity.
import type { UpstreamProviderKind } from '../schema.ts';
import type { UpstreamClient, ValidatedTokens } from '../upstream/relying-party.ts';

/** Users are keyed on (issuer, subject) — for Microsoft the tenant and object ids — never on email (AS-77). */
export type UpstreamIdentity = {
  provider: UpstreamProviderKind;
  issuer: string;
  subject: string;
  email: string;
  /** Whether the provider vouches for the address (linking pre-provisioned users requires it). */
  emailVerified: boolean;
  name: string;
};

export type ProviderSetup = {
  kind: UpstreamProviderKind;
  /** Shown on pages: Google, Microsoft, or the organization's SSO. */
  label: string;
  client: UpstreamClient;
  redirectUri: string;
  scope: string;
  extraAuthParams?: Record<string, string>;
  /** Provider-specific claim checks, after openid-client validated the ID token. */
  identify(tokens: ValidatedTokens): UpstreamIdentity;
};

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

export function displayName(claims: Record<string, unknown>, email: string): string {
  return str(claims.name) ?? ([str(claims.given_name), str(claims.family_name)].filter(Boolean).join(' ') || email.slice(0, email.indexOf('@')));
}
