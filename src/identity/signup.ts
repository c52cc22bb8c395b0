// From a verified upstream identity to a user of an organization: the self-serve sign-up policy.
//   known (issuer, subject)                        → that user
//   domain has an organization, user pre-provisioned → link, only by a verified email in one of
//                                                    the organization's verified domains
//   domain has an organization, no such user       → join as member if it allows auto-join,
//                                                    else refuse and name its admins
//   new company domain                             → new organization, the user its admin, trial now
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { ConflictError } from '../store/errors.ts';
import { now } from '../store/ids.ts';
import { createOrganization, findOrganizationByDomain, type Organization } from '../store/organizations.ts';
import { createUser, findUserByEmail, findUserByIdentity, linkIdentity, listUsers, recordSignIn, type User } from '../store/users.ts';
import { emailDomain } from './email-policy.ts';
import type { UpstreamIdentity } from './providers/types.ts';
import { SignInRefused } from './refusal.ts';

export type SignUpOutcome = { user: User; created: 'organization' | 'member' | 'linked' | 'none' };

export type SignUpOptions = { trialDays: number; signupSource: string | null; ssoOrgId: string | null };

export async function resolveUser(db: Kysely<Database>, identity: UpstreamIdentity, options: SignUpOptions): Promise<SignUpOutcome> {
  const key = { issuer: identity.issuer, subject: identity.subject };
  const known = await findUserByIdentity(db, key);
  if (known) return finish(db, known, 'none', options);

  const domain = emailDomain(identity.email);
  if (!domain) throw new SignInRefused('email_not_verified', 'Your account has no usable email address.');
  let org = await findOrganizationByDomain(db, domain);
  if (options.ssoOrgId && org?.id !== options.ssoOrgId) {
    throw new SignInRefused('email_domain_mismatch', `${domain} does not belong to the organization whose single sign-on you used.`);
  }
  if (!org) {
    if (!identity.emailVerified) {
      throw new SignInRefused('email_not_verified', 'Your provider has not verified your email address, so we cannot start an organization for its domain.');
    }
    try {
      return await createOrganizationFor(db, identity, domain, options);
    } catch (error) {
      // Two first sign-ins from one domain at once: the loser joins the winner's organization.
      if (!(error instanceof ConflictError)) throw error;
      org = await findOrganizationByDomain(db, domain);
      if (!org) throw error;
    }
  }
  return joinOrLink(db, org, identity, domain, options);
}

async function createOrganizationFor(db: Kysely<Database>, identity: UpstreamIdentity, domain: string, options: SignUpOptions): Promise<SignUpOutcome> {
  const trialEndsAt = now() + options.trialDays * 24 * 3600 * 1000;
  const org = await createOrganization(db, {
    name: organizationName(domain),
    domains: [domain],
    license: { plan: 'trial', trialEndsAt, seats: null },
    autoJoinByDomain: true,
  });
  const user = await createUser(db, { orgId: org.id, email: identity.email, name: identity.name, role: 'admin', signupSource: options.signupSource });
  await linkIdentity(db, user, { issuer: identity.issuer, subject: identity.subject }, identity.email);
  return finish(db, user, 'organization', options);
}

async function joinOrLink(db: Kysely<Database>, org: Organization, identity: UpstreamIdentity, domain: string, options: SignUpOptions): Promise<SignUpOutcome> {
  const key = { issuer: identity.issuer, subject: identity.subject };
  const verifiedDomain = await isVerifiedDomainOf(db, org.id, domain);
  const existing = await findUserByEmail(db, org.id, identity.email);
  if (existing) {
    // Linking by email is the one place email matters: only a verified address in a verified domain.
    if (!identity.emailVerified || !verifiedDomain) {
      throw new SignInRefused('email_not_verified', 'Your provider has not verified this email address, so it cannot be linked to your existing account.');
    }
    await linkIdentity(db, existing, key, identity.email);
    return finish(db, existing, 'linked', options);
  }
  if (!org.settings.autoJoinByDomain || !identity.emailVerified || !verifiedDomain) {
    const admins = (await listUsers(db, org.id)).filter((u) => u.role === 'admin' && u.status === 'active').map((u) => u.email);
    throw new SignInRefused('not_a_member', `${org.name} already uses the Agent Access Service, and new members join by invitation.`, { admins });
  }
  try {
    const user = await createUser(db, { orgId: org.id, email: identity.email, name: identity.name, role: 'member', signupSource: options.signupSource });
    await linkIdentity(db, user, key, identity.email);
    return finish(db, user, 'member', options);
  } catch (error) {
    if (error instanceof ConflictError) {
      const raced = await findUserByIdentity(db, key);
      if (raced) return finish(db, raced, 'none', options);
    }
    throw error;
  }
}

async function finish(db: Kysely<Database>, user: User, created: SignUpOutcome['created'], _options: SignUpOptions): Promise<SignUpOutcome> {
  if (user.status !== 'active') throw new SignInRefused('user_disabled', 'Your account has been disabled by an administrator of your organization.');
  await recordSignIn(db, user.orgId, user.id);
  return { user, created };
}

/** Linking and joining by email trust only a domain the organization has verified. */
async function isVerifiedDomainOf(db: Kysely<Database>, orgId: string, domain: string): Promise<boolean> {
  const row = await db.selectFrom('org_domains').select('verified').where('domain', '=', domain).where('org_id', '=', orgId).executeTakeFirst();
  return row?.verified === 1;
}

/** `northwind-traders.co.uk` → `Northwind Traders`: a starting name the admin can change. */
export function organizationName(domain: string): string {
  const label = domain.split('.')[0] ?? domain;
  return label
    .split(/[-_]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ') || domain;
}
