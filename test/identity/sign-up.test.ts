// Self-serve sign-up and linking, over HTTP through the demo identity provider, on both dialects.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createOrganization, findOrganizationByDomain, setLicense } from '../../src/store/organizations.ts';
import { createUser, findUserByEmail, setUserStatus } from '../../src/store/users.ts';
import { dialectsUnderTest } from '../support/databases.ts';
import { DemoSignInError, signInAsDemoUser } from '../support/demo-signin.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import { startTestService, type TestService } from '../support/service.ts';

const unique = (label: string) => `${label}-${randomBytes(3).toString('hex')}.example`;

async function refusedReason(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DemoSignInError, String(error));
    return error.reason;
  }
  assert.fail('expected the sign-in to be refused');
}

for (const dialect of dialectsUnderTest()) {
  describe(`self-serve sign-up (${dialect})`, () => {
    let service: TestService;
    before(async () => {
      service = await startTestService({ dialect });
    });
    after(() => service.close());
    const db = () => service.ctx.store.db;

    test('a pre-provisioned user is linked by verified email on first sign-in, then found by (issuer, subject)', async () => {
      const org = await createOrganization(db(), { name: 'Northwind', domains: ['northwind.example'], license: { plan: 'paid', trialEndsAt: null, seats: 40 } });
      const ada = await createUser(db(), { orgId: org.id, email: 'ada.admin@northwind.example', name: 'Ada Admin', role: 'admin' });
      const cookie = await signInAsDemoUser(service.baseUrl, 'ada.admin@northwind.example', '/account');
      const page = await (await fetch(`${service.baseUrl}/account`, { headers: { cookie } })).text();
      assert.match(page, /<dd id="account-email">ada.admin@northwind.example<\/dd>/);
      assert.match(page, /<dd id="account-role">admin<\/dd>/);
      await signInAsDemoUser(service.baseUrl, 'ada.admin@northwind.example');
      const identities = await db().selectFrom('user_identities').selectAll().where('user_id', '=', ada.id).execute();
      assert.equal(identities.length, 1, 'one identity, reused on the second sign-in');
      assert.equal((await db().selectFrom('users').select('id').where('org_id', '=', org.id).execute()).length, 1, 'no duplicate user');
    });

    test('the same person through Microsoft is another identity of the same pre-provisioned user', async () => {
      const cookie = await signInAsDemoUser(service.baseUrl, 'ada.admin@northwind.example', undefined, { provider: 'microsoft' });
      const page = await (await fetch(`${service.baseUrl}/account`, { headers: { cookie } })).text();
      assert.match(page, /<dd id="account-role">admin<\/dd>/);
    });

    test('an organization without auto-join refuses newcomers and names its admins', async () => {
      const domain = unique('closed');
      const org = await createOrganization(db(), { name: 'Closed Co', domains: [domain], license: { plan: 'paid', trialEndsAt: null, seats: 5 }, autoJoinByDomain: false });
      await createUser(db(), { orgId: org.id, email: `boss@${domain}`, name: 'Boss', role: 'admin' });
      const response = await signInAsDemoUser(service.baseUrl, `newbie@${domain}`).catch((e: unknown) => e);
      assert.ok(response instanceof DemoSignInError);
      assert.equal(response.reason, 'not_a_member');
      assert.equal(await findUserByEmail(db(), org.id, `newbie@${domain}`), undefined);
    });

    test('the not-a-member page says whom to ask', async () => {
      const domain = unique('closed');
      const org = await createOrganization(db(), { name: 'Closed Again', domains: [domain], license: { plan: 'paid', trialEndsAt: null, seats: 5 }, autoJoinByDomain: false });
      await createUser(db(), { orgId: org.id, email: `owner@${domain}`, name: 'Owner', role: 'admin' });
      await createUser(db(), { orgId: org.id, email: `staff@${domain}`, name: 'Staff', role: 'member' });
      // Drive the flow by hand to read the page itself.
      const jar = new CookieJar();
      const go = (url: URL, init: RequestInit = {}) => jar.fetch(url, init);
      let url = new URL('/login_google/', service.baseUrl);
      let r = await go(url);
      while (r.status === 302 || r.status === 303) r = await go((url = new URL(r.headers.get('location') ?? '', url)));
      const html = await r.text();
      const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
      r = await go((url = new URL(action, url)), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: `stranger@${domain}`, csrf_token: csrf }).toString() });
      while (r.status === 302 || r.status === 303) r = await go((url = new URL(r.headers.get('location') ?? '', url)));
      const page = await r.text();
      assert.equal(r.status, 403);
      assert.match(page, new RegExp(`mailto:owner@${domain.replaceAll('.', '\\.')}`));
      assert.doesNotMatch(page, /staff@/);
    });

    test('a disabled user is refused', async () => {
      const domain = unique('disabled');
      const org = await createOrganization(db(), { name: 'Disabled Co', domains: [domain], license: { plan: 'paid', trialEndsAt: null, seats: 5 } });
      const user = await createUser(db(), { orgId: org.id, email: `gone@${domain}`, name: 'Gone', role: 'member' });
      await setUserStatus(db(), org.id, user.id, 'disabled');
      assert.equal(await refusedReason(signInAsDemoUser(service.baseUrl, `gone@${domain}`)), 'user_disabled');
    });

    test('disabling a user ends their existing session', async () => {
      const domain = unique('ends');
      const cookie = await signInAsDemoUser(service.baseUrl, `soon-gone@${domain}`);
      assert.equal((await fetch(`${service.baseUrl}/account`, { headers: { cookie }, redirect: 'manual' })).status, 200);
      const org = await findOrganizationByDomain(db(), domain);
      const user = await findUserByEmail(db(), org!.id, `soon-gone@${domain}`);
      await setUserStatus(db(), org!.id, user!.id, 'disabled');
      const after = await fetch(`${service.baseUrl}/account`, { headers: { cookie }, redirect: 'manual' });
      assert.equal(after.status, 302);
      assert.match(after.headers.get('location') ?? '', /\/signin\?return_to=%2Faccount$/);
    });

    test('an organization whose trial has ended gets the trial-expired page', async () => {
      const domain = unique('expired');
      await signInAsDemoUser(service.baseUrl, `first@${domain}`);
      const org = await findOrganizationByDomain(db(), domain);
      assert.ok(org);
      await setLicense(db(), org.id, { plan: 'trial', trialEndsAt: Date.now() - 1000, seats: null });
      assert.equal(await refusedReason(signInAsDemoUser(service.baseUrl, `first@${domain}`)), 'license_expired');
    });

    test('the sign-up source is recorded when well-formed and ignored otherwise', async () => {
      const a = unique('source');
      await signInAsDemoUser(service.baseUrl, `ok@${a}`, undefined, { source: 'newsletter.2026-11_a' });
      const orgA = await findOrganizationByDomain(db(), a);
      assert.equal((await findUserByEmail(db(), orgA!.id, `ok@${a}`))?.signupSource, 'newsletter.2026-11_a');
      const b = unique('source');
      await signInAsDemoUser(service.baseUrl, `bad@${b}`, undefined, { source: '<script>alert(1)</script>' });
      const orgB = await findOrganizationByDomain(db(), b);
      assert.equal((await findUserByEmail(db(), orgB!.id, `bad@${b}`))?.signupSource, null);
      const c = unique('source');
      await signInAsDemoUser(service.baseUrl, `long@${c}`, undefined, { source: 'x'.repeat(65) });
      const orgC = await findOrganizationByDomain(db(), c);
      assert.equal((await findUserByEmail(db(), orgC!.id, `long@${c}`))?.signupSource, null);
    });

    test('sign-in returns to a same-origin return_to', async () => {
      await signInAsDemoUser(service.baseUrl, `back@${unique('return')}`, '/account?tab=apps');
    });

    for (const unsafe of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', '/ok//double', 'javascript:alert(1)']) {
      test(`an unsafe return_to (${unsafe}) is dropped at the start`, async () => {
        const r = await fetch(`${service.baseUrl}/login_google/?return_to=${encodeURIComponent(unsafe)}`, { redirect: 'manual' });
        assert.equal(r.status, 302);
        const rows = await db().selectFrom('upstream_login_states').select('return_to').orderBy('created_at', 'desc').limit(1).execute();
        assert.equal(rows[0]?.return_to, null);
      });
    }

    test('sign-out without a valid CSRF token is refused and keeps the session', async () => {
      const cookie = await signInAsDemoUser(service.baseUrl, `csrf@${unique('csrf')}`);
      for (const body of ['', 'csrf_token=forged']) {
        const r = await fetch(`${service.baseUrl}/signout`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body });
        assert.equal(r.status, 403);
      }
      assert.equal((await fetch(`${service.baseUrl}/account`, { headers: { cookie }, redirect: 'manual' })).status, 200);
    });

    test('a Microsoft consumer-domain email is refused; the allowlist does not apply to it here', async () => {
      assert.equal(await refusedReason(signInAsDemoUser(service.baseUrl, 'someone@hotmail.com', undefined, { provider: 'microsoft' })), 'personal_microsoft_account');
    });
  });
}

describe('free-email allowlist override', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ env: { FREE_EMAIL_DOMAINS_ALLOWED: 'gmx.com' } });
  });
  after(() => service.close());

  test('a listed free-email domain is refused without the override', async () => {
    const plain = await startTestService();
    try {
      assert.equal(await refusedReason(signInAsDemoUser(plain.baseUrl, 'ceo@gmx.com', undefined, { provider: 'microsoft' })), 'personal_microsoft_account');
      assert.equal(await refusedReason(signInAsDemoUser(plain.baseUrl, 'ceo@yandex.com')), 'google_no_hosted_domain');
    } finally {
      await plain.close();
    }
  });

  test('FREE_EMAIL_DOMAINS_ALLOWED lets a listed domain sign up', async () => {
    await signInAsDemoUser(service.baseUrl, 'ceo@gmx.com');
    const org = await findOrganizationByDomain(service.ctx.store.db, 'gmx.com');
    assert.equal(org?.license.plan, 'trial');
  });
});
