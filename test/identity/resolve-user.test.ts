// The sign-up policy on its own, on both dialects: who may be linked, joined or start an
// organization, and what happens when two first sign-ins from one new domain race.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpstreamIdentity } from '../../src/identity/providers/types.ts';
import { SignInRefused } from '../../src/identity/refusal.ts';
import { organizationName, resolveUser } from '../../src/identity/signup.ts';
import type { Store } from '../../src/store/database.ts';
import { createOrganization, listOrganizations } from '../../src/store/organizations.ts';
import { createUser, findUserByIdentity, listUsers } from '../../src/store/users.ts';
import { dialectsUnderTest, openTestStore } from '../support/databases.ts';

const options = { trialDays: 14, signupSource: null, ssoOrgId: null };
const person = (email: string, extra: Partial<UpstreamIdentity> = {}): UpstreamIdentity => ({
  provider: 'google',
  issuer: 'https://accounts.google.com',
  subject: `sub-${email}`,
  email,
  emailVerified: true,
  name: email.split('@')[0] ?? email,
  ...extra,
});

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SignInRefused, String(error));
    return error.reason;
  }
  assert.fail('expected a refusal');
}

for (const dialect of dialectsUnderTest()) {
  describe(`resolveUser (${dialect})`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    before(async () => {
      ({ store, cleanup } = await openTestStore(dialect));
    });
    after(() => cleanup());

    test('AS-77 a pre-provisioned user is not linked by an unverified email', async () => {
      const org = await createOrganization(store.db, { name: 'Hooli', domains: ['hooli.example'], license: { plan: 'paid', trialEndsAt: null, seats: 5 } });
      await createUser(store.db, { orgId: org.id, email: 'gavin@hooli.example', name: 'Gavin', role: 'admin' });
      const impostor = person('gavin@hooli.example', { provider: 'microsoft', issuer: 'https://login.microsoftonline.com/t/v2.0', subject: 't:o', emailVerified: false });
      assert.equal(await reason(resolveUser(store.db, impostor, options)), 'email_not_verified');
      assert.equal(await findUserByIdentity(store.db, impostor), undefined);
    });

    test('a pre-provisioned user is not linked through a domain the organization has not verified', async () => {
      const org = await createOrganization(store.db, { name: 'Pied Piper', domains: ['piedpiper.example'], license: { plan: 'paid', trialEndsAt: null, seats: 5 } });
      await store.db.insertInto('org_domains').values({ domain: 'pp-unverified.example', org_id: org.id, verified: 0, created_at: Date.now() }).execute();
      await createUser(store.db, { orgId: org.id, email: 'richard@pp-unverified.example', name: 'Richard', role: 'admin' });
      assert.equal(await reason(resolveUser(store.db, person('richard@pp-unverified.example'), options)), 'email_not_verified');
    });

    test('an unverified email cannot start an organization', async () => {
      assert.equal(await reason(resolveUser(store.db, person('x@brand-new.example', { emailVerified: false }), options)), 'email_not_verified');
      assert.equal((await listOrganizations(store.db)).some((o) => o.domains.includes('brand-new.example')), false);
    });

    test('the same (issuer, subject) always resolves to the same user, whatever email it now carries', async () => {
      const first = await resolveUser(store.db, person('erlich@aviato.example'), options);
      assert.equal(first.created, 'organization');
      const again = await resolveUser(store.db, { ...person('erlich@aviato.example'), email: 'renamed@aviato.example' }, options);
      assert.equal(again.user.id, first.user.id);
      assert.equal(again.created, 'none');
    });

    test('two first sign-ins from one new domain at once make one organization: one admin, one member', async () => {
      const [a, b] = await Promise.all([
        resolveUser(store.db, person('one@racing.example'), options),
        resolveUser(store.db, person('two@racing.example'), options),
      ]);
      assert.equal(a.user.orgId, b.user.orgId);
      const users = await listUsers(store.db, a.user.orgId);
      assert.deepEqual(users.map((u) => u.role).sort(), ['admin', 'member']);
    });

    test('SSO sign-in for an organization refuses an email of another organization', async () => {
      const other = await createOrganization(store.db, { name: 'Raviga', domains: ['raviga.example'], license: { plan: 'paid', trialEndsAt: null, seats: 5 } });
      assert.equal(await reason(resolveUser(store.db, person('laurie@hooli.example'), { ...options, ssoOrgId: other.id })), 'email_domain_mismatch');
    });
  });
}

test('a new organization is named after its domain', () => {
  assert.equal(organizationName('northwind-traders.co.uk'), 'Northwind Traders');
  assert.equal(organizationName('acme.example'), 'Acme');
});
