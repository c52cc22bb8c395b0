// The upstream leg's checks (AS-77): an ID token with the wrong issuer, audience, expiry or nonce,
// a reused or missing state cookie, or a state from another browser is refused. The upstream is
// an organization's SSO pointed at a small local issuer (an outside-service stand-in).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CookieJar } from '../support/cookie-jar.ts';
import { dialectsUnderTest } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { startFakeIssuer, type FakeIssuer } from './support/fake-issuer.ts';
import { reasonOf, ssoCallbackUrl, ssoOrganization } from './support/sso.ts';

for (const dialect of dialectsUnderTest()) {
  describe(`upstream checks (${dialect})`, () => {
    let service: TestService;
    let fake: FakeIssuer;
    let n = 0;
    const email = () => `person${++n}@acme-${dialect}.test`;

    before(async () => {
      service = await startTestService({ dialect });
      fake = await startFakeIssuer();
      await ssoOrganization(service, fake, `acme-${dialect}.test`);
    });
    after(async () => {
      await fake.close();
      await service.close();
    });

    const signIn = async (next: FakeIssuer['next']) => {
      const jar = new CookieJar();
      const address = email();
      fake.account = { sub: `sub-${address}`, email: address, email_verified: true, name: 'Pat Person' };
      fake.next = next;
      const callback = await ssoCallbackUrl(service, jar, address);
      const response = await jar.fetch(callback);
      return { response, body: await response.text(), jar, callback };
    };

    test('a valid ID token from the SSO issuer signs in (control)', async () => {
      const { response, jar } = await signIn({});
      assert.equal(response.status, 302);
      assert.equal(response.headers.get('location'), '/welcome');
      assert.match(jar.header(), /aas_session=/);
    });

    test('AS-77 an ID token with the wrong iss is refused', async () => {
      const { response, body, jar } = await signIn({ claims: { iss: 'https://evil.example' } });
      assert.equal(response.status, 401);
      assert.equal(reasonOf(body), 'id_token_iss');
      assert.doesNotMatch(jar.header(), /aas_session=/);
    });

    test('AS-77 an ID token for another audience is refused', async () => {
      const { response, body } = await signIn({ claims: { aud: 'some-other-client' } });
      assert.equal(response.status, 401);
      assert.equal(reasonOf(body), 'id_token_aud');
    });

    test('AS-77 an expired ID token is refused', async () => {
      const past = Math.floor(Date.now() / 1000) - 3600;
      const { response, body } = await signIn({ claims: { iat: past - 300, exp: past } });
      assert.equal(response.status, 401);
      assert.equal(reasonOf(body), 'id_token_exp');
    });

    test('AS-77 an ID token with a nonce other than the one sent is refused', async () => {
      const { response, body } = await signIn({ claims: { nonce: 'not-the-nonce-we-sent' } });
      assert.equal(response.status, 401);
      assert.equal(reasonOf(body), 'id_token_nonce');
    });

    test('AS-77 a replayed callback (state already used) is refused', async () => {
      const { response, jar, callback } = await signIn({});
      assert.equal(response.status, 302);
      const replay = await jar.fetch(callback);
      assert.equal(replay.status, 400);
      assert.equal(reasonOf(await replay.text()), 'login_state_invalid');
    });

    test('AS-77 a callback without the state cookie is refused', async () => {
      const jar = new CookieJar();
      const address = email();
      fake.account = { sub: `sub-${address}`, email: address, email_verified: true };
      fake.next = {};
      const callback = await ssoCallbackUrl(service, jar, address);
      const response = await new CookieJar().fetch(callback);
      assert.equal(response.status, 400);
      assert.equal(reasonOf(await response.text()), 'login_state_missing');
      assert.equal(response.headers.getSetCookie().some((c) => c.includes('aas_session=')), false);
    });

    test('AS-77 a callback carried to another browser (different state cookie) is refused, and the first browser can still finish', async () => {
      const jar = new CookieJar();
      const address = email();
      fake.account = { sub: `sub-${address}`, email: address, email_verified: true };
      fake.next = {};
      const callback = await ssoCallbackUrl(service, jar, address);
      const other = new CookieJar();
      await other.fetch(`${service.baseUrl}/signin`); // gets its own browser cookie only on demand
      other.cookies.set([...jar.cookies.keys()].find((k) => k.endsWith('aas_browser')) ?? 'aas_browser', 'A'.repeat(43));
      const stolen = await other.fetch(callback);
      assert.equal(stolen.status, 400);
      assert.equal(reasonOf(await stolen.text()), 'login_state_invalid');
      const own = await jar.fetch(callback);
      assert.equal(own.status, 302);
    });

    test('AS-77 a callback with a state that was never issued is refused', async () => {
      const jar = new CookieJar();
      const address = email();
      fake.account = { sub: `sub-${address}`, email: address, email_verified: true };
      const callback = await ssoCallbackUrl(service, jar, address);
      callback.searchParams.set('state', 'forged-state-value');
      const response = await jar.fetch(callback);
      assert.equal(response.status, 400);
      assert.equal(reasonOf(await response.text()), 'login_state_invalid');
    });

    test('the SSO start sends PKCE S256, state and nonce upstream', async () => {
      const jar = new CookieJar();
      const start = await jar.fetch(`${service.baseUrl}/login_sso/?email=${encodeURIComponent(email())}`);
      const url = new URL(start.headers.get('location') ?? '');
      assert.equal(url.origin, fake.origin);
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.match(url.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.match(url.searchParams.get('state') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.match(url.searchParams.get('nonce') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.equal(url.searchParams.get('redirect_uri'), `${service.baseUrl}/login_sso/callback`);
    });

    test('an SSO identity for a domain the SSO does not serve is refused', async () => {
      const jar = new CookieJar();
      const address = email();
      fake.account = { sub: `sub-${address}`, email: 'someone@elsewhere-corp.test', email_verified: true };
      fake.next = {};
      const callback = await ssoCallbackUrl(service, jar, address);
      const response = await jar.fetch(callback);
      assert.equal(response.status, 403);
      assert.equal(reasonOf(await response.text()), 'email_domain_mismatch');
    });

    test('/login_sso/ for a domain without SSO says so and offers Google and Microsoft', async () => {
      const response = await fetch(`${service.baseUrl}/login_sso/?email=someone@no-sso-here.test`, { redirect: 'manual' });
      assert.equal(response.status, 404);
      const body = await response.text();
      assert.equal(reasonOf(body), 'no_sso');
      assert.match(body, /href="\/login_google\/"/);
      assert.match(body, /href="\/login_ms\/"/);
    });
  });
}
