// AS-75 (Google: the ID token's `hd` claim, never the request parameter) and AS-76 (Microsoft: the
// `organizations` authority, tid-substituted issuer, consumer tenant refused, keyed on tid+oid).
// Microsoft is faked by a local issuer reached through openid-client's custom fetch, so the real
// https://login.microsoftonline.com code path (discovery, issuer template) runs unchanged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MICROSOFT_CONSUMER_TENANT } from '../../src/identity/defaults.ts';
import { emailPolicy } from '../../src/identity/email-policy.ts';
import { identifyGoogle } from '../../src/identity/providers/google.ts';
import { identifyMicrosoft, MICROSOFT_AUTHORITY } from '../../src/identity/providers/microsoft.ts';
import { SignInRefused } from '../../src/identity/refusal.ts';
import { beginAuthorization, completeAuthorization, type UpstreamClient } from '../../src/identity/upstream/relying-party.ts';
import { startFakeIssuer, type FakeIssuer } from './support/fake-issuer.ts';

const policy = emailPolicy([]);
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const OTHER_TENANT = '11111111-2222-4333-8444-555555555555';
const MS = 'https://login.microsoftonline.com';

async function refusal(promise: Promise<unknown> | (() => unknown)): Promise<SignInRefused> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    assert.ok(error instanceof SignInRefused, `expected SignInRefused, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}

describe('AS-76 Microsoft through the organizations authority', () => {
  let fake: FakeIssuer;
  let client: UpstreamClient;

  before(async () => {
    fake = await startFakeIssuer({ issuer: `${MS}/{tenantid}/v2.0`, endpointBase: `${MS}/organizations/oauth2/v2.0` });
    client = {
      discoveryUrl: MICROSOFT_AUTHORITY,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      allowHttp: false,
      // The outside service stand-in: every request to login.microsoftonline.com reaches the fake.
      fetch: (url, init) => fetch(String(url).replace(MS, fake.origin), init),
    };
  });
  after(() => fake.close());

  async function signIn(account: Record<string, unknown>, claims: Record<string, unknown> = {}) {
    fake.account = account;
    fake.next = { claims };
    const redirectUri = 'https://agents.example.com/login_ms/callback';
    const auth = await beginAuthorization(client, redirectUri, 'openid email profile');
    assert.equal(auth.url.origin, MS);
    const authorize = await fetch(auth.url.href.replace(MS, fake.origin), { redirect: 'manual' });
    const callback = new URL(authorize.headers.get('location') ?? '');
    const tokens = await completeAuthorization(client, callback, auth);
    return identifyMicrosoft(tokens, policy);
  }

  const work = (tid = TENANT) => ({ sub: 'pairwise-sub', tid, oid: '00000000-0000-4000-8000-0000000000aa', email: 'ana@contoso.example', xms_edov: true, name: 'Ana' });

  test('AS-76 a work account signs in, keyed on tid and oid, with the tenant-specific issuer', async () => {
    const identity = await signIn(work(), { iss: `${MS}/${TENANT}/v2.0` });
    assert.equal(identity.issuer, `${MS}/${TENANT}/v2.0`);
    assert.equal(identity.subject, `${TENANT}:00000000-0000-4000-8000-0000000000aa`);
    assert.equal(identity.emailVerified, true);
  });

  test('AS-76 a token whose iss names another tenant than its tid is refused', async () => {
    const refused = await refusal(signIn(work(), { iss: `${MS}/${OTHER_TENANT}/v2.0` }));
    assert.equal(refused.reason, 'id_token_iss');
  });

  test('AS-76 a token whose iss is the unsubstituted template is refused', async () => {
    const refused = await refusal(signIn(work(), { iss: `${MS}/{tenantid}/v2.0` }));
    assert.equal(refused.reason, 'id_token_iss');
  });

  test('AS-76 the personal Microsoft account tenant is refused', async () => {
    const refused = await refusal(signIn({ ...work(MICROSOFT_CONSUMER_TENANT), email: 'kim@contoso.example' }, { iss: `${MS}/${MICROSOFT_CONSUMER_TENANT}/v2.0` }));
    assert.equal(refused.reason, 'personal_microsoft_account');
  });

  test('AS-76 the issuer check holds on its own: a tid that does not match iss is refused by identifyMicrosoft', async () => {
    const claims = { iss: `${MS}/${TENANT}/v2.0`, sub: 's', aud: 'c', iat: 0, exp: 0, tid: OTHER_TENANT, oid: 'o', email: 'a@contoso.example' };
    const refused = await refusal(() => identifyMicrosoft({ claims, serverIssuer: `${MS}/{tenantid}/v2.0` }, policy));
    assert.equal(refused.reason, 'id_token_iss');
  });

  test('AS-76 an email Microsoft does not vouch for (no email_verified, no xms_edov) is marked unverified', async () => {
    const identity = await signIn({ ...work(), xms_edov: undefined }, { iss: `${MS}/${TENANT}/v2.0` });
    assert.equal(identity.emailVerified, false);
  });
});

describe('AS-75 Google requires the hd claim', () => {
  const base = { iss: 'https://accounts.google.com', sub: '1234567890', aud: 'c', iat: 0, exp: 0, email_verified: true };
  const identify = (claims: Record<string, unknown>) => identifyGoogle({ claims: { ...base, ...claims }, serverIssuer: base.iss }, policy);

  test('AS-75 a Workspace account (hd claim) signs in', () => {
    const identity = identify({ email: 'lee@northwind.example', hd: 'northwind.example' });
    assert.equal(identity.subject, '1234567890');
    assert.equal(identity.issuer, 'https://accounts.google.com');
  });

  test('AS-75 a work-looking email without the hd claim is refused (the email domain alone is not enough)', async () => {
    const refused = await refusal(() => identify({ email: 'lee@northwind.example' }));
    assert.equal(refused.reason, 'google_no_hosted_domain');
  });

  test('AS-75 an hd on the free-email list is refused', async () => {
    const refused = await refusal(() => identify({ email: 'lee@gmail.com', hd: 'gmail.com' }));
    assert.equal(refused.reason, 'personal_account');
  });

  test('AS-75 an unverified Google email is refused', async () => {
    const refused = await refusal(() => identify({ email: 'lee@northwind.example', hd: 'northwind.example', email_verified: false }));
    assert.equal(refused.reason, 'email_not_verified');
  });

  test('AS-75 the sign-in request never sends the hd parameter', async () => {
    const fake = await startFakeIssuer();
    try {
      const auth = await beginAuthorization({ discoveryUrl: fake.issuer, clientId: fake.clientId, clientSecret: fake.clientSecret, allowHttp: true }, 'http://localhost/cb', 'openid email profile', { prompt: 'select_account' });
      assert.equal(auth.url.searchParams.has('hd'), false);
    } finally {
      await fake.close();
    }
  });
});
