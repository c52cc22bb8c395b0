// Microsoft Entra ID through the multi-tenant `organizations` authority (AS-76). Its discovery
// issuer is the template https://login.microsoftonline.com/{tenantid}/v2.0; openid-client already
// substitutes the token's own `tid`, and we check again here (exact match), refuse the personal
// account tenant, and key the user on (tid, oid), never on email or preferred_username.
import { MICROSOFT_CONSUMER_TENANT } from '../defaults.ts';
import type { EmailPolicy } from '../email-policy.ts';
import { emailDomain } from '../email-policy.ts';
import { SignInRefused } from '../refusal.ts';
import type { UpstreamClient, ValidatedTokens } from '../upstream/relying-party.ts';
import { displayName, str, type ProviderSetup, type UpstreamIdentity } from './types.ts';

export const MICROSOFT_AUTHORITY = 'https://login.microsoftonline.com/organizations/v2.0';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `prompt`: `select_account` for the real provider; the demo provider asks for `login` every time. */
export function microsoftProvider(client: UpstreamClient, redirectUri: string, policy: EmailPolicy, prompt = 'select_account'): ProviderSetup {
  return {
    kind: 'microsoft',
    label: 'Microsoft',
    client,
    redirectUri,
    scope: 'openid email profile',
    extraAuthParams: { prompt },
    identify: (tokens) => identifyMicrosoft(tokens, policy),
  };
}

export function identifyMicrosoft({ claims, serverIssuer }: ValidatedTokens, policy: EmailPolicy): UpstreamIdentity {
  const tid = str(claims.tid);
  const oid = str(claims.oid);
  if (!tid || !GUID.test(tid) || !oid) throw new SignInRefused('id_token_invalid', 'The Microsoft ID token carried no valid tenant (tid) or object id (oid).', { status: 401 });
  // The issuer must be the template with this token's own tenant substituted, byte for byte.
  if (claims.iss !== serverIssuer.replace('{tenantid}', tid)) {
    throw new SignInRefused('id_token_iss', 'The Microsoft ID token\'s issuer does not match its tenant, so it was not accepted.', { status: 401 });
  }
  if (tid.toLowerCase() === MICROSOFT_CONSUMER_TENANT) {
    throw new SignInRefused('personal_microsoft_account', 'This is a personal Microsoft account (Outlook.com, Hotmail, Xbox…). Sign in with your work or school account instead.');
  }
  const email = (str(claims.email) ?? '').toLowerCase();
  const domain = emailDomain(email);
  if (!domain) throw new SignInRefused('email_not_verified', 'Microsoft did not share an email address for this account. Ask your administrator to release the email claim.');
  if (claims.email_verified === false) throw new SignInRefused('email_not_verified', 'Microsoft has not verified this account\'s email address.');
  if (policy.isPersonalDomain(domain)) throw new SignInRefused('personal_account', `${domain} is a personal email provider. Sign in with your work account instead.`);
  // Entra's `email` is admin-editable unless the tenant verified the domain: only `email_verified`
  // or the `xms_edov` optional claim vouch for it (the "nOAuth" lesson).
  const emailVerified = claims.email_verified === true || claims.xms_edov === true || claims.xms_edov === '1';
  return { provider: 'microsoft', issuer: claims.iss, subject: `${tid.toLowerCase()}:${oid.toLowerCase()}`, email, emailVerified, name: displayName(claims, email) };
}
