// The small pieces sign-in relies on: return_to and source validation, sealed secrets, the
// free-email list, CSRF tokens and the signInUrl contract.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { createBrowserIdentity } from '../../src/identity/index.ts';
import { emailDomain, emailPolicy } from '../../src/identity/email-policy.ts';
import { safeReturnTo, safeSignupSource } from '../../src/identity/return-to.ts';
import { openSecret, sealSecret } from '../../src/crypto/secret-box.ts';
import { signInAsDemoUser } from '../support/demo-signin.ts';
import { SIGN_IN_STARTS_PER_MINUTE } from '../../src/identity/defaults.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('return_to validation', () => {
  for (const ok of ['/', '/oauth/authorize?client_id=a&redirect_uri=https%3A%2F%2Fclaude.ai%2Fcb', '/account', '/oauth/authorize?redirect_uri=http://localhost:3000/cb']) {
    test(`accepts ${ok}`, () => assert.equal(safeReturnTo(ok), ok));
  }
  for (const bad of ['', 'account', '//evil.example', '///evil.example', '/\\evil.example', '\\\\evil', 'https://evil.example/', '/a//b', '/\tevil', ' /x', 'javascript:alert(1)', '/x'.repeat(2000), undefined, 42]) {
    test(`refuses ${JSON.stringify(bad)?.slice(0, 40)}`, () => assert.equal(safeReturnTo(bad), null));
  }
});

describe('sign-up source validation', () => {
  test('keeps ≤ 64 of [A-Za-z0-9._-]', () => assert.equal(safeSignupSource('campaign_2026.q4-a'), 'campaign_2026.q4-a'));
  test('ignores anything else', () => {
    for (const bad of ['', 'a b', '<x>', 'x'.repeat(65), 'ünï', undefined]) assert.equal(safeSignupSource(bad), null);
  });
});

describe('sealed secrets (AES-256-GCM)', () => {
  const key = randomBytes(32);
  test('round-trips and never contains the plaintext', () => {
    const sealed = sealSecret(key, 'client-secret-123', 'sso-client-secret:org_1');
    assert.doesNotMatch(sealed, /client-secret-123/);
    assert.equal(openSecret(key, sealed, 'sso-client-secret:org_1'), 'client-secret-123');
  });
  test('a secret moved to another organization, altered, or under another key does not open', () => {
    const sealed = sealSecret(key, 'client-secret-123', 'sso-client-secret:org_1');
    assert.throws(() => openSecret(key, sealed, 'sso-client-secret:org_2'));
    assert.throws(() => openSecret(randomBytes(32), sealed, 'sso-client-secret:org_1'));
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    assert.throws(() => openSecret(key, parts.join('.'), 'sso-client-secret:org_1'));
  });
  test('two seals of one secret differ (fresh IV)', () => {
    assert.notEqual(sealSecret(key, 's', 'c'), sealSecret(key, 's', 'c'));
  });
});

describe('work emails only', () => {
  const policy = emailPolicy([]);
  test('the installed free-email list covers the big providers', () => {
    for (const d of ['gmail.com', 'outlook.com', 'hotmail.com', 'yahoo.com', 'gmx.com']) assert.equal(policy.isPersonalDomain(d), true, d);
  });
  test('company domains are not personal', () => {
    for (const d of ['northwind.example', 'globex.example', 'microsoft.com']) assert.equal(policy.isPersonalDomain(d), false, d);
  });
  test('the allowlist overrides the list', () => assert.equal(emailPolicy(['GMX.com']).isPersonalDomain('gmx.com'), false));
  test('emailDomain takes the domain of a valid address only', () => {
    assert.equal(emailDomain('Ada@Northwind.Example'), 'northwind.example');
    assert.equal(emailDomain('not-an-email'), null);
    assert.equal(emailDomain(undefined), null);
  });
});

describe('BrowserIdentity contract', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(() => service.close());

  test('signInUrl points at /signin on BASE_URL and carries only a safe return_to', () => {
    const identity = createBrowserIdentity(service.ctx);
    assert.equal(identity.signInUrl('/oauth/authorize?x=1'), `${service.baseUrl}/signin?return_to=%2Foauth%2Fauthorize%3Fx%3D1`);
    assert.equal(identity.signInUrl('//evil.example'), `${service.baseUrl}/signin`);
  });

  test('currentUser is null without a session and the user with one', async () => {
    const identity = createBrowserIdentity(service.ctx);
    const app = new Hono();
    app.get('/who', async (c) => c.json(await identity.currentUser(c)));
    assert.equal(await (await app.request('/who')).json(), null);
    const cookie = await signInAsDemoUser(service.baseUrl, `who@who-${randomBytes(3).toString('hex')}.example`);
    const me = (await (await app.request('/who', { headers: { cookie } })).json()) as Record<string, unknown>;
    assert.match(String(me.email), /^who@/);
    assert.equal(me.role, 'admin');
    assert.equal(typeof me.sessionId, 'string');
    assert.doesNotMatch(cookie, new RegExp(String(me.sessionId)), 'sessionId is not the cookie value');
    assert.match(String(me.upstreamIssuer), /\/demo-idp\/google$/);
  });

  test('a CSRF token verifies for its browser and purpose only', async () => {
    const identity = createBrowserIdentity(service.ctx);
    const app = new Hono();
    app.get('/token/:purpose', async (c) => c.text(await identity.issueCsrfToken(c, c.req.param('purpose'))));
    app.post('/check/:purpose', async (c) => c.json(await identity.verifyCsrfToken(c, c.req.param('purpose'), (await c.req.text()) || '')));
    const cookie = await signInAsDemoUser(service.baseUrl, `csrf@csrf-${randomBytes(3).toString('hex')}.example`);
    const other = await signInAsDemoUser(service.baseUrl, `csrf2@csrf-${randomBytes(3).toString('hex')}.example`);
    const token = await (await app.request('/token/consent:abc', { headers: { cookie } })).text();
    const check = async (purpose: string, body: string, c: string) => (await app.request(`/check/${purpose}`, { method: 'POST', body, headers: { cookie: c } })).json();
    assert.equal(await check('consent:abc', token, cookie), true);
    assert.equal(await check('consent:xyz', token, cookie), false, 'another purpose');
    assert.equal(await check('consent:abc', token, other), false, 'another browser');
    assert.equal(await check('consent:abc', '', cookie), false, 'empty');
  });

  test('before sign-in, CSRF tokens bind to a browser cookie set on demand', async () => {
    const identity = createBrowserIdentity(service.ctx);
    const app = new Hono();
    app.get('/token', async (c) => c.text(await identity.issueCsrfToken(c, 'p')));
    app.post('/check', async (c) => c.json(await identity.verifyCsrfToken(c, 'p', await c.req.text())));
    const issued = await app.request('/token');
    const setCookie = issued.headers.getSetCookie().find((c) => c.startsWith('aas_browser='));
    assert.ok(setCookie);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/);
    const cookie = setCookie.split(';')[0] ?? '';
    const token = await issued.text();
    assert.equal(await (await app.request('/check', { method: 'POST', body: token, headers: { cookie } })).json(), true);
    assert.equal(await (await app.request('/check', { method: 'POST', body: token })).json(), false);
  });
});

describe('cookies on https', () => {
  test('an https BASE_URL gives __Host- cookies with Secure', async () => {
    const service = await startTestService({ env: {} });
    try {
      const ctx = { ...service.ctx, config: { ...service.ctx.config, baseUrl: 'https://agents.example.com' } };
      const identity = createBrowserIdentity(ctx);
      const app = new Hono();
      app.get('/token', async (c) => c.text(await identity.issueCsrfToken(c, 'p')));
      const set = (await app.request('/token')).headers.getSetCookie()[0] ?? '';
      assert.match(set, /^__Host-aas_browser=/);
      assert.match(set, /; Secure/);
      assert.match(set, /; Path=\//);
      assert.doesNotMatch(set, /Domain=/i);
    } finally {
      await service.close();
    }
  });
});

describe('sign-in start rate limit', () => {
  test('the start paths answer 429 with Retry-After once an address exceeds its budget', async () => {
    const service = await startTestService();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < SIGN_IN_STARTS_PER_MINUTE; i++) statuses.push((await fetch(`${service.baseUrl}/login_google/`, { redirect: 'manual' })).status);
      assert.deepEqual(new Set(statuses), new Set([302]));
      const limited = await fetch(`${service.baseUrl}/login_sso/?email=a@b.example`, { redirect: 'manual' });
      assert.equal(limited.status, 429);
      assert.match(limited.headers.get('retry-after') ?? '', /^\d+$/);
      assert.equal((await fetch(`${service.baseUrl}/signin`)).status, 200, 'the sign-in page itself is not limited');
    } finally {
      await service.close();
    }
  });
});
