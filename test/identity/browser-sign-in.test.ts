// Real Chromium signs in through the demo identity provider as Google, as Microsoft and as an SSO
// tenant; personal accounts are refused with the explanatory page; a new domain creates an
// organization with an active trial and an admin, and a second user of that domain joins it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { demoClientId, demoClientSecret, demoIssuer } from '../../src/identity/demo-idp/clients.ts';
import { sealSecret, ssoSecretContext } from '../../src/crypto/secret-box.ts';
import { createOrganization, findOrganizationByDomain, licenseIsActive, setSso } from '../../src/store/organizations.ts';
import { createUser, findUserByEmail } from '../../src/store/users.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { startFakeIssuer } from './support/fake-issuer.ts';
import { ssoOrganization } from './support/sso.ts';
import { launchBrowser, signInWithDemoGoogle } from '../support/browser.ts';

describe('sign-in in a real browser through the demo identity provider', () => {
  let service: TestService;
  let browser: Browser;
  const domain = `initech-${randomBytes(3).toString('hex')}.example`;

  before(async () => {
    service = await startTestService();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  async function withPage<T>(run: (page: Page) => Promise<T>): Promise<T> {
    const context = await browser.newContext();
    try {
      return await run(await context.newPage());
    } finally {
      await context.close();
    }
  }

  /** From /signin, choose a provider, then type the email on the demo provider's page. */
  async function signIn(page: Page, how: 'google' | 'microsoft' | 'sso', email: string) {
    await page.goto(`${service.baseUrl}/signin`);
    if (how === 'sso') {
      await page.fill('#sso-email', email);
      await page.click('form[action="/login_sso/"] button[type=submit]');
    } else {
      await page.click(how === 'google' ? '#signin-google' : '#signin-microsoft');
    }
    await page.waitForURL(/\/demo-idp\//);
    await page.fill('input[type=email]', email);
    await page.click('button[type=submit]');
    await page.waitForLoadState('load');
  }

  test('a new company domain signs up through Google: organization, active trial, admin', async () => {
    await withPage(async (page) => {
      await signIn(page, 'google', `founder@${domain}`);
      assert.match(page.url(), /\/welcome\?new=organization$/);
      assert.match(await page.textContent('main') ?? '', /We created .* for your domain and made you its administrator/);
      assert.equal(await page.textContent('#mcp-url'), `${service.baseUrl}/mcp`);
      assert.match(await page.textContent('main') ?? '', /claude mcp add --transport http agent-access/);

      const { db } = service.ctx.store;
      const org = await findOrganizationByDomain(db, domain);
      assert.ok(org);
      assert.equal(org.license.plan, 'trial');
      assert.ok(licenseIsActive(org.license));
      const days = ((org.license.trialEndsAt ?? 0) - Date.now()) / 86_400_000;
      assert.ok(days > 13.9 && days <= 14, `trial ends in ${days} days`);
      const founder = await findUserByEmail(db, org.id, `founder@${domain}`);
      assert.equal(founder?.role, 'admin');

      const cookies = await page.context().cookies(service.baseUrl);
      const session = cookies.find((c) => c.name === 'aas_session');
      assert.ok(session, 'session cookie set');
      assert.equal(session.httpOnly, true);
      assert.equal(session.sameSite, 'Lax');
    });
  });

  test('a second user of that domain signs in through Microsoft and joins as member', async () => {
    await withPage(async (page) => {
      await signIn(page, 'microsoft', `colleague@${domain}`);
      assert.match(page.url(), /\/welcome$/);
      const org = await findOrganizationByDomain(service.ctx.store.db, domain);
      assert.ok(org);
      const colleague = await findUserByEmail(service.ctx.store.db, org.id, `colleague@${domain}`);
      assert.equal(colleague?.role, 'member');
      await page.goto(`${service.baseUrl}/account`);
      assert.equal(await page.textContent('#account-role'), 'member');
      assert.equal(await page.textContent('#account-org'), org.name);
    });
  });

  test('an SSO tenant signs in a pre-provisioned user and links them', async () => {
    const { db } = service.ctx.store;
    const ssoDomain = `globex-${randomBytes(3).toString('hex')}.example`;
    const org = await createOrganization(db, { name: 'Globex', domains: [ssoDomain], license: { plan: 'paid', trialEndsAt: null, seats: 10 } });
    await createUser(db, { orgId: org.id, email: `gia.admin@${ssoDomain}`, name: 'Gia Admin', role: 'admin' });
    const { config } = service.ctx;
    await setSso(db, org.id, {
      issuer: demoIssuer(config.baseUrl, 'sso'),
      clientId: demoClientId('sso'),
      clientSecretEncrypted: sealSecret(config.secrets.encryptionKey, demoClientSecret(config.secrets.hash, 'sso'), ssoSecretContext(org.id)),
      domains: [ssoDomain],
    });
    await withPage(async (page) => {
      await signIn(page, 'sso', `gia.admin@${ssoDomain}`);
      assert.match(page.url(), /\/welcome$/);
      await page.goto(`${service.baseUrl}/account`);
      assert.equal(await page.textContent('#account-email'), `gia.admin@${ssoDomain}`);
      assert.equal(await page.textContent('#account-role'), 'admin');
      assert.equal(await page.textContent('#account-license'), 'Paid (10 seats)');
    });
  });

  test('a personal Google account (gmail.com) is refused with a page that says why and offers alternatives', async () => {
    await withPage(async (page) => {
      await signIn(page, 'google', 'anyone@gmail.com');
      assert.equal(await page.textContent('h1'), 'Personal accounts cannot sign in');
      assert.equal(await page.getAttribute('#refusal', 'data-reason'), 'google_no_hosted_domain');
      assert.match(await page.textContent('main') ?? '', /personal Google account/);
      assert.ok(await page.$('a[href="/login_ms/"]'));
      assert.ok(await page.$('a[href="/signin"]'));
      assert.equal((await page.context().cookies()).some((c) => c.name === 'aas_session'), false);
    });
  });

  test('a Microsoft consumer-tenant account is refused with the explanatory page', async () => {
    await withPage(async (page) => {
      await signIn(page, 'microsoft', 'someone@outlook.com');
      assert.equal(await page.textContent('h1'), 'Personal accounts cannot sign in');
      assert.equal(await page.getAttribute('#refusal', 'data-reason'), 'personal_microsoft_account');
      assert.match(await page.textContent('main') ?? '', /personal Microsoft account/);
    });
  });

  test('the SSO form reaches an IdP on another origin (CSP form-action allows the redirect)', async () => {
    const fake = await startFakeIssuer(); // http://127.0.0.1:… — another origin than http://localhost:…
    try {
      const ssoDomain = `hooli-${randomBytes(3).toString('hex')}.example`;
      await ssoOrganization(service, fake, ssoDomain);
      fake.account = { sub: 'hooli-1', email: `gavin@${ssoDomain}`, email_verified: true, name: 'Gavin' };
      await withPage(async (page) => {
        await page.goto(`${service.baseUrl}/signin`);
        await page.fill('#sso-email', `gavin@${ssoDomain}`);
        await page.click('form[action="/login_sso/"] button[type=submit]');
        await page.waitForURL(/\/welcome/);
        assert.match(await page.textContent('main') ?? '', /Welcome, Gavin/);
      });
    } finally {
      await fake.close();
    }
  });

  test('a sign-in started for an OAuth request returns the browser there', async () => {
    await withPage(async (page) => {
      await page.goto(`${service.baseUrl}/signin?return_to=${encodeURIComponent('/account?from=oauth')}`);
      await signInWithDemoGoogle(page, `returning@${domain}`);
      await page.waitForURL(/\/account\?from=oauth$/);
      assert.equal(await page.textContent('#account-email'), `returning@${domain}`);
    });
  });

  test('signing out (a CSRF-protected POST) ends the session', async () => {
    await withPage(async (page) => {
      await signIn(page, 'google', `founder@${domain}`);
      await page.goto(`${service.baseUrl}/account`);
      await page.click('form[action="/signout"] button[type=submit]');
      await page.waitForURL(/\/signin$/);
      await page.goto(`${service.baseUrl}/account`);
      assert.match(page.url(), /\/signin\?return_to=%2Faccount$/);
    });
  });
});
