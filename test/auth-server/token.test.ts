import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTokenVerifier } from '../../src/auth-server/index.ts';
import { issueAuthorizationCode } from '../../src/auth-server/codes.ts';
import { keyedHash } from '../../src/auth-server/secrets.ts';
import { findCode } from '../../src/store/oauth-codes.ts';
import { listAuditEvents } from '../../src/store/audit-events.ts';
import { dialectsUnderTest } from '../support/databases.ts';
import { authorizeAndApprove, authorizeUrl, BASE_URL, consentForm, exchange, form, pkce, refuseWrites, registerClient, signedInBrowser, startHarness, type Browser, type Harness, type RegisteredClient } from './harness.ts';

type Body = Record<string, unknown>;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const withAuth = (fields: Record<string, string>, authorization: string) => ({ ...form(fields), headers: { ...form(fields).headers, authorization } });

describe('token endpoint: authorization_code', () => {
  let h: Harness;
  let browser: Browser;
  let pub: RegisteredClient;
  before(async () => {
    h = await startHarness('sqlite');
    browser = await signedInBrowser(h);
    pub = await registerClient(h);
  });
  after(async () => h.close());

  const codeFor = (client: RegisteredClient, extra: Record<string, string> = {}) => authorizeAndApprove(h, browser, client, extra);

  it('AS-43 AS-44 a token response has Bearer, expires_in, scope, resource and a refresh token without offline_access', async () => {
    const { code, verifier } = await codeFor(pub);
    const res = await exchange(h, pub, code, verifier);
    assert.equal(res.status, 200);
    const body = (await res.json()) as Body;
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.scope, 'mcp');
    assert.equal(body.resource, `${BASE_URL}/mcp`);
    assert.match(String(body.access_token), /^aat_/);
    assert.match(String(body.refresh_token), /^art_/);
  });

  it('AS-44 offline_access is accepted and granted when asked for', async () => {
    const { code, verifier } = await codeFor(pub, { scope: 'mcp offline_access' });
    const body = (await (await exchange(h, pub, code, verifier)).json()) as Body;
    assert.equal(body.scope, 'mcp offline_access');
  });

  it('AS-42 token responses and token errors carry Cache-Control: no-store and Pragma: no-cache', async () => {
    const { code, verifier } = await codeFor(pub);
    for (const res of [await exchange(h, pub, code, verifier), await exchange(h, pub, 'aac_nope', verifier)]) {
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('pragma'), 'no-cache');
    }
  });

  it('AS-53 access tokens live one hour by default, configurable shorter', async () => {
    const short = await startHarness('sqlite', { ACCESS_TOKEN_TTL_SECONDS: '900' });
    try {
      const b = await signedInBrowser(short);
      const c = await registerClient(short);
      const { code, verifier } = await authorizeAndApprove(short, b, c);
      assert.equal(((await (await exchange(short, c, code, verifier)).json()) as Body).expires_in, 900);
    } finally {
      await short.close();
    }
  });

  it('AS-22 AS-23 codes are aac_ + 256 bits, stored hashed, and live 60 s', async () => {
    const { code } = await codeFor(pub);
    assert.match(code, /^aac_[A-Za-z0-9_-]{43}$/);
    const row = await findCode(h.ctx.store.db, keyedHash(h.ctx.config.secrets.hash, code));
    assert.ok(row);
    assert.equal(row.expiresAt - row.createdAt, 60_000);
  });

  it('AS-22 an expired code is invalid_grant', async () => {
    const { verifier, challenge } = pkce();
    const code = await issueAuthorizationCode(h.ctx, { clientId: pub.client_id, orgId: browser.orgId, userId: browser.userId, sessionId: null, redirectUri: pub.redirect_uris[0] ?? '', codeChallenge: challenge, scope: 'mcp', resource: `${BASE_URL}/mcp` });
    await h.ctx.store.db.updateTable('oauth_codes').set({ expires_at: Date.now() - 1 }).execute();
    const res = await exchange(h, pub, code, verifier);
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { error: 'invalid_grant', error_description: 'The authorization code has expired' });
  });

  it('AS-20 a verifier for a code issued without a challenge is refused (PKCE downgrade)', async () => {
    const { verifier } = pkce();
    const code = await issueAuthorizationCode(h.ctx, { clientId: pub.client_id, orgId: browser.orgId, userId: browser.userId, sessionId: null, redirectUri: pub.redirect_uris[0] ?? '', codeChallenge: '', scope: 'mcp', resource: `${BASE_URL}/mcp` });
    const res = await exchange(h, pub, code, verifier);
    assert.equal(((await res.json()) as Body).error, 'invalid_grant');
  });

  it('AS-21 the code is bound to client, verifier, redirect URI and resource', async () => {
    const other = await registerClient(h);
    let r = await codeFor(pub);
    let res = await exchange(h, other, r.code, r.verifier, { redirect_uri: pub.redirect_uris[0] ?? '' });
    assert.equal(((await res.json()) as Body).error, 'invalid_grant', 'another client');
    res = await exchange(h, pub, r.code, pkce().verifier);
    assert.equal(((await res.json()) as Body).error, 'invalid_grant', 'another verifier');
    res = await exchange(h, pub, r.code, r.verifier, { redirect_uri: 'https://client.example/other' });
    assert.equal(((await res.json()) as Body).error, 'invalid_grant', 'another redirect_uri');
    res = await exchange(h, pub, r.code, r.verifier, { resource: 'https://elsewhere.example/mcp' });
    assert.equal(((await res.json()) as Body).error, 'invalid_target', 'another resource (AS-54)');
    res = await exchange(h, pub, r.code, r.verifier, { resource: `${BASE_URL}/mcp/` });
    assert.equal(res.status, 200, 'after failed attempts the legitimate exchange still works; the trailing slash is the same resource');
    r = await codeFor(pub);
    const row = await findCode(h.ctx.store.db, keyedHash(h.ctx.config.secrets.hash, r.code));
    assert.equal(row?.userId, browser.userId);
    assert.ok(row?.sessionId, 'bound to the approving browser session');
  });

  it('AS-19 a malformed code_verifier is invalid_request', async () => {
    const { code } = await codeFor(pub);
    for (const bad of ['short', 'x'.repeat(129), `${'a'.repeat(42)}!`]) {
      const res = await exchange(h, pub, code, bad);
      assert.equal(((await res.json()) as Body).error, 'invalid_request', bad);
    }
  });

  it('AS-27 redirect_uri may be omitted at the token endpoint, but if sent must match', async () => {
    const { code, verifier } = await codeFor(pub);
    const res = await h.request('/oauth/token', form({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: pub.client_id }));
    assert.equal(res.status, 200);
  });

  it('AS-24 a later valid replay revokes the tokens issued from the code and is audited', async () => {
    const { code, verifier } = await codeFor(pub);
    const first = (await (await exchange(h, pub, code, verifier)).json()) as Body;
    const verifier2 = createTokenVerifier(h.ctx);
    assert.ok((await verifier2.verify(String(first.access_token))).ok);
    const replay = await exchange(h, pub, code, verifier);
    assert.equal(replay.status, 400);
    assert.equal(((await replay.json()) as Body).error, 'invalid_grant');
    assert.equal((await createTokenVerifier(h.ctx).verify(String(first.access_token))).ok, false);
    const refresh = await h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: String(first.refresh_token), client_id: pub.client_id }));
    assert.equal(((await refresh.json()) as Body).error, 'invalid_grant');
    assert.ok((await listAuditEvents(h.ctx.store.db, { kind: 'code_replay_detected', clientId: pub.client_id })).length >= 1);
  });

  it('AS-24 an invalid replay (wrong verifier or client) revokes nothing', async () => {
    const other = await registerClient(h);
    const { code, verifier } = await codeFor(pub);
    const first = (await (await exchange(h, pub, code, verifier)).json()) as Body;
    await exchange(h, pub, code, pkce().verifier);
    await exchange(h, other, code, verifier, { redirect_uri: pub.redirect_uris[0] ?? '' });
    assert.ok((await createTokenVerifier(h.ctx).verify(String(first.access_token))).ok);
  });

  it('AS-25 the code_challenge never appears in any response', async () => {
    const { verifier, challenge } = pkce();
    const fresh = await signedInBrowser(h);
    const page = await fresh.get(authorizeUrl(pub, challenge));
    const text = await page.text();
    assert.equal(page.status, 200);
    assert.ok(!text.includes(challenge), 'consent page');
    const approved = await fresh.post('/oauth/consent', { ...consentForm(text), decision: 'approve' });
    const location = approved.headers.get('location') ?? '';
    assert.ok(!location.includes(challenge), 'redirect');
    const code = new URL(location).searchParams.get('code') ?? '';
    const token = await (await exchange(h, pub, code, verifier)).text();
    assert.match(token, /access_token/);
    assert.ok(!token.includes(challenge), 'token response');
  });

  it('AS-41 error codes: unsupported_grant_type, invalid_request for missing or repeated parameters; ASCII descriptions', async () => {
    let res = await h.request('/oauth/token', form({ grant_type: 'client_credentials', client_id: pub.client_id }));
    assert.equal(((await res.json()) as Body).error, 'unsupported_grant_type');
    res = await h.request('/oauth/token', form({ client_id: pub.client_id }));
    assert.equal(((await res.json()) as Body).error, 'invalid_request');
    res = await h.request('/oauth/token', form({ grant_type: 'authorization_code', client_id: pub.client_id }));
    assert.equal(((await res.json()) as Body).error, 'invalid_request');
    res = await h.request('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=authorization_code&grant_type=refresh_token&client_id=${pub.client_id}` });
    assert.equal(((await res.json()) as Body).error, 'invalid_request');
    res = await h.request('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const body = (await res.json()) as Body;
    assert.equal(body.error, 'invalid_request');
    assert.match(String(body.error_description), /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/);
  });

  it('AS-41 unauthorized_client when the client did not register the grant type', async () => {
    const codeOnly = await registerClient(h, { grant_types: ['authorization_code'] });
    const res = await h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: 'art_x', client_id: codeOnly.client_id }));
    assert.equal(((await res.json()) as Body).error, 'unauthorized_client');
  });
});


for (const dialect of dialectsUnderTest()) {
  describe(`token endpoint: the code exchange is one transaction (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(dialect);
    });
    after(async () => h.close());

    it('tokens are issued only with their audit event: a refused audit write issues nothing and leaves the code redeemable', async () => {
      const client = await registerClient(h);
      const { code, verifier } = await authorizeAndApprove(h, await signedInBrowser(h), client);
      const grants = async () => (await h.ctx.store.db.selectFrom('oauth_grants').select('id').where('client_id', '=', client.client_id).execute()).length;
      const allow = await refuseWrites(h, 'audit_events', 'INSERT');
      const refused = await exchange(h, client, code, verifier);
      assert.equal(refused.status, 500, await refused.clone().text());
      assert.equal(((await refused.json()) as Body).error, 'server_error');
      assert.equal(await grants(), 0, 'no grant, no tokens');
      await allow();
      const ok = await exchange(h, client, code, verifier);
      assert.equal(ok.status, 200, 'the code was not spent by the failed exchange');
      assert.equal(await grants(), 1);
      assert.equal((await listAuditEvents(h.ctx.store.db, { kind: 'tokens_issued', clientId: client.client_id })).length, 1);
      const row = await findCode(h.ctx.store.db, keyedHash(h.ctx.config.secrets.hash, code));
      assert.ok(row?.consumedAt && row.grantId, 'redeemed, with the grant a replay revokes');
    });
  });
}
describe('token endpoint: client authentication', () => {
  let h: Harness;
  let browser: Browser;
  let conf: RegisteredClient & { client_secret: string };
  before(async () => {
    h = await startHarness('sqlite');
    browser = await signedInBrowser(h);
    conf = (await registerClient(h, { token_endpoint_auth_method: 'client_secret_basic' })) as typeof conf;
  });
  after(async () => h.close());

  const fields = async () => {
    const { code, verifier } = await authorizeAndApprove(h, browser, conf);
    return { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: conf.redirect_uris[0] ?? '' };
  };

  it('AS-36 client_secret_basic works, with and without client_id in the body', async () => {
    let res = await h.request('/oauth/token', withAuth(await fields(), basic(conf.client_id, conf.client_secret)));
    assert.equal(res.status, 200);
    res = await h.request('/oauth/token', withAuth({ ...(await fields()), client_id: conf.client_id }, basic(conf.client_id, conf.client_secret)));
    assert.equal(res.status, 200, 'AS-37 the same client_id in header and body is tolerated');
  });

  it('AS-36 Basic credentials are form-url-decoded (RFC 6749 App. B), and naive btoa(id:secret) works too', async () => {
    const encoded = `Basic ${Buffer.from(`${encodeURIComponent(conf.client_id)}:${encodeURIComponent(conf.client_secret)}`).toString('base64')}`;
    assert.equal((await h.request('/oauth/token', withAuth(await fields(), encoded))).status, 200);
    assert.match(conf.client_secret, /^[A-Za-z0-9_-]+$/, 'secrets use unreserved characters only');
  });

  it('AS-60 P13 client_secret_post works for a client registered with client_secret_basic', async () => {
    const res = await h.request('/oauth/token', form({ ...(await fields()), client_id: conf.client_id, client_secret: conf.client_secret }));
    assert.equal(res.status, 200);
  });

  it('AS-37 Basic plus client_secret in the body is invalid_request', async () => {
    const res = await h.request('/oauth/token', withAuth({ ...(await fields()), client_secret: conf.client_secret }, basic(conf.client_id, conf.client_secret)));
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as Body).error, 'invalid_request');
  });

  it('AS-38 failed Basic authentication is 401 invalid_client with WWW-Authenticate: Basic realm', async () => {
    const res = await h.request('/oauth/token', withAuth(await fields(), basic(conf.client_id, 'wrong')));
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as Body).error, 'invalid_client');
    assert.match(res.headers.get('www-authenticate') ?? '', /^Basic realm="[^"]+"/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('AS-38 failed post authentication is 401 invalid_client too', async () => {
    const res = await h.request('/oauth/token', form({ ...(await fields()), client_id: conf.client_id, client_secret: 'wrong' }));
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as Body).error, 'invalid_client');
    const unknown = await h.request('/oauth/token', form({ ...(await fields()), client_id: 'cli_unknown' }));
    assert.equal(unknown.status, 401);
  });

  it('AS-40 a confidential client must authenticate; a public client only names itself', async () => {
    const res = await h.request('/oauth/token', form({ ...(await fields()), client_id: conf.client_id }));
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as Body).error, 'invalid_client');
  });
});

describe('token endpoint rate limits', () => {
  it('AS-39 the token endpoint is brute-force limited per client_id and per IP (429 + Retry-After)', async () => {
    const h = await startHarness('sqlite', { OAUTH_REQUESTS_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: 'art_guess', client_id: 'cli_target', client_secret: `guess${i}` }));
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
      assert.match(last?.headers.get('retry-after') ?? '', /^\d+$/);
      assert.equal(last?.headers.get('cache-control'), 'no-store');
    } finally {
      await h.close();
    }
  });
});
