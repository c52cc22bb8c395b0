// Test helpers: an organization whose SSO is a fake issuer, and an HTTP sign-in through it.
import { sealSecret, ssoSecretContext } from '../../../src/crypto/secret-box.ts';
import { createOrganization, setSso, type Organization } from '../../../src/store/organizations.ts';
import type { TestService } from '../../support/service.ts';
import type { CookieJar } from '../../support/cookie-jar.ts';
import type { FakeIssuer } from './fake-issuer.ts';

export async function ssoOrganization(service: TestService, fake: FakeIssuer, domain: string): Promise<Organization> {
  const { db } = service.ctx.store;
  const org = await createOrganization(db, {
    name: `SSO ${domain}`,
    domains: [domain],
    license: { plan: 'trial', trialEndsAt: Date.now() + 86_400_000, seats: null },
  });
  await setSso(db, org.id, {
    issuer: fake.issuer,
    clientId: fake.clientId,
    clientSecretEncrypted: sealSecret(service.ctx.config.secrets.encryptionKey, fake.clientSecret, ssoSecretContext(org.id)),
    domains: [domain],
  });
  return org;
}

/** Starts SSO sign-in for `email`; returns the callback URL the fake issuer redirected to. */
export async function ssoCallbackUrl(service: TestService, jar: CookieJar, email: string): Promise<URL> {
  const start = await jar.fetch(`${service.baseUrl}/login_sso/?email=${encodeURIComponent(email)}`);
  if (start.status !== 302) throw new Error(`SSO start answered ${start.status}`);
  const authorize = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
  return new URL(authorize.headers.get('location') ?? '');
}

export const reasonOf = (body: string) => /data-reason="([^"]+)"/.exec(body)?.[1] ?? null;
