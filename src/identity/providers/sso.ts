// Per-organization enterprise OIDC SSO: the organization's own issuer, client and the email domains
// it serves. The IdP is trusted for those domains only (an admin configured it for them).
import type { OrganizationRecord } from '../../store/organizations.ts';
import type { EmailPolicy } from '../email-policy.ts';
import { emailDomain } from '../email-policy.ts';
import { SignInRefused } from '../refusal.ts';
import type { UpstreamClient, ValidatedTokens } from '../upstream/relying-party.ts';
import { displayName, str, type ProviderSetup, type UpstreamIdentity } from './types.ts';

export function ssoProvider(org: OrganizationRecord, client: UpstreamClient, redirectUri: string, policy: EmailPolicy): ProviderSetup {
  const domains = new Set(org.settings.sso?.domains ?? []);
  return {
    kind: 'sso',
    label: `${org.name} single sign-on`,
    client,
    redirectUri,
    scope: 'openid email profile',
    identify: (tokens) => identifySso(tokens, domains, policy),
  };
}

export function identifySso({ claims }: ValidatedTokens, domains: Set<string>, policy: EmailPolicy): UpstreamIdentity {
  const email = (str(claims.email) ?? '').toLowerCase();
  const domain = emailDomain(email);
  if (!domain) throw new SignInRefused('email_not_verified', 'Your single sign-on provider did not share an email address.');
  if (claims.email_verified === false) throw new SignInRefused('email_not_verified', 'Your single sign-on provider has not verified this email address.');
  if (policy.isPersonalDomain(domain)) throw new SignInRefused('personal_account', `${domain} is a personal email provider. Sign in with your work account instead.`);
  if (!domains.has(domain)) throw new SignInRefused('email_domain_mismatch', `This single sign-on does not serve ${domain}.`);
  return { provider: 'sso', issuer: claims.iss, subject: claims.sub, email, emailVerified: true, name: displayName(claims, email) };
}
