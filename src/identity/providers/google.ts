// Google (https://accounts.google.com). AS-75: a Workspace account is proven only by the ID token's
// `hd` claim; the `hd` request parameter is a UI hint any user can strip, so it is never sent or trusted.
import { SignInRefused } from '../refusal.ts';
import type { EmailPolicy } from '../email-policy.ts';
import { emailDomain } from '../email-policy.ts';
import type { UpstreamClient, ValidatedTokens } from '../upstream/relying-party.ts';
import { displayName, str, type ProviderSetup, type UpstreamIdentity } from './types.ts';

export const GOOGLE_ISSUER = 'https://accounts.google.com';

/** `prompt`: `select_account` for the real provider; the demo provider asks for `login` every time. */
export function googleProvider(client: UpstreamClient, redirectUri: string, policy: EmailPolicy, prompt = 'select_account'): ProviderSetup {
  return {
    kind: 'google',
    label: 'Google',
    client,
    redirectUri,
    scope: 'openid email profile',
    extraAuthParams: { prompt },
    identify: (tokens) => identifyGoogle(tokens, policy),
  };
}

export function identifyGoogle({ claims }: ValidatedTokens, policy: EmailPolicy): UpstreamIdentity {
  const hd = str(claims.hd)?.toLowerCase();
  if (!hd) {
    throw new SignInRefused('google_no_hosted_domain', 'This is a personal Google account. Sign in with your work Google Workspace account instead.');
  }
  if (policy.isPersonalDomain(hd)) throw new SignInRefused('personal_account', `${hd} is a personal email provider. Sign in with your work account instead.`);
  const email = str(claims.email)?.toLowerCase();
  const domain = emailDomain(email);
  if (!email || !domain) throw new SignInRefused('email_not_verified', 'Google did not share an email address for this account.');
  // Google always sends email_verified; require it (AS-77, "where the provider sends it").
  if (claims.email_verified !== true) throw new SignInRefused('email_not_verified', 'Google has not verified this account\'s email address.');
  if (policy.isPersonalDomain(domain)) throw new SignInRefused('personal_account', `${domain} is a personal email provider. Sign in with your work account instead.`);
  return { provider: 'google', issuer: claims.iss, subject: claims.sub, email, emailVerified: true, name: displayName(claims, email) };
}
