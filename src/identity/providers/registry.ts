// Which upstream provider serves each start path. Real Google/Microsoft credentials win; without
// them, in development, the demo identity provider's Google and Microsoft issuers stand in.
import type { AppContext } from '../../http/context.ts';
import type { OrganizationRecord } from '../../store/organizations.ts';
import { demoClientId, demoClientSecret, demoIssuer } from '../demo-idp/clients.ts';
import { emailPolicy, type EmailPolicy } from '../email-policy.ts';
import { SignInRefused } from '../refusal.ts';
import { openSecret, ssoSecretContext } from '../../crypto/secret-box.ts';
import type { UpstreamProviderKind } from '../schema.ts';
import type { UpstreamClient } from '../upstream/relying-party.ts';
import { GOOGLE_ISSUER, googleProvider } from './google.ts';
import { MICROSOFT_AUTHORITY, microsoftProvider } from './microsoft.ts';
import { ssoProvider } from './sso.ts';
import type { ProviderSetup } from './types.ts';

export const CALLBACK_PATHS: Record<UpstreamProviderKind, string> = {
  google: '/login_google/callback',
  microsoft: '/login_ms/callback',
  sso: '/login_sso/callback',
};

export type Providers = {
  policy: EmailPolicy;
  google(): ProviderSetup | null;
  microsoft(): ProviderSetup | null;
  sso(org: OrganizationRecord): ProviderSetup | null;
};

export function providerRegistry(ctx: AppContext): Providers {
  const { config } = ctx;
  const policy = emailPolicy(config.freeEmailDomainsAllowed);
  const redirect = (kind: UpstreamProviderKind) => `${config.baseUrl}${CALLBACK_PATHS[kind]}`;
  const allowHttp = config.env === 'development';
  const demo = (kind: 'google' | 'microsoft'): UpstreamClient => ({
    discoveryUrl: demoIssuer(config.baseUrl, kind),
    clientId: demoClientId(kind),
    clientSecret: demoClientSecret(config.secrets.hash, kind),
    allowHttp,
  });
  return {
    policy,
    google() {
      if (config.google) return googleProvider({ discoveryUrl: GOOGLE_ISSUER, ...config.google, allowHttp: false }, redirect('google'), policy);
      return config.demoIdp ? googleProvider(demo('google'), redirect('google'), policy, 'login') : null;
    },
    microsoft() {
      if (config.microsoft) return microsoftProvider({ discoveryUrl: MICROSOFT_AUTHORITY, ...config.microsoft, allowHttp: false }, redirect('microsoft'), policy);
      return config.demoIdp ? microsoftProvider(demo('microsoft'), redirect('microsoft'), policy, 'login') : null;
    },
    sso(org) {
      const sso = org.settings.sso;
      if (!sso) return null;
      let clientSecret: string;
      try {
        clientSecret = openSecret(config.secrets.encryptionKey, sso.clientSecretEncrypted, ssoSecretContext(org.id));
      } catch (cause) {
        // Sealed under another ENCRYPTION_KEY, or altered: the SSO must be set again.
        throw new SignInRefused('provider_unavailable', `The single sign-on of ${org.name} is misconfigured. Ask its administrator to set it again.`, { status: 502, cause });
      }
      return ssoProvider(org, { discoveryUrl: sso.issuer, clientId: sso.clientId, clientSecret, allowHttp }, redirect('sso'), policy);
    },
  };
}
