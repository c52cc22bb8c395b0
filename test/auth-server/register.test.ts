import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { collectAbandonedClients } from '../../src/auth-server/index.ts';
import { findClient, touchClient } from '../../src/store/oauth-clients.ts';
import { listAuditEvents } from '../../src/store/audit-events.ts';
import { findConsentScope, rememberConsent } from '../../src/store/oauth-consents.ts';
import { issueGrantTokens } from '../../src/auth-server/index.ts';
import { BASE_URL, json, startHarness, type Harness } from './harness.ts';
import { dialectsUnderTest } from '../support/databases.ts';

type Body = Record<string, unknown>;

describe('dynamic client registration (RFC 7591, RFC 7592)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('sqlite');
  });
  after(async () => h.close());

  const register = async (body: unknown) => {
    const res = await h.request('/oauth/register', json(body));
    return { res, body: (await res.json()) as Body };
  };
  const refused = async (body: unknown, error: string, field: RegExp) => {
    const r = await register(body);
    assert.equal(r.res.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error, error);
    assert.match(String(r.body.error_description), field);
  };

  it('AS-58 a confidential registration answers 201 with the effective metadata, a secret once and client_secret_expires_at 0', async () => {
    const { res, body } = await register({ client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], token_endpoint_auth_method: 'client_secret_post' });
    assert.equal(res.status, 201);
    assert.match(String(body.client_id), /^cli_/);
    assert.equal(typeof body.client_id_issued_at, 'number');
    assert.ok(Math.abs(Number(body.client_id_issued_at) - Date.now() / 1000) < 60);
    assert.match(String(body.client_secret), /^acs_[A-Za-z0-9_-]{43}$/);
    assert.equal(body.client_secret_expires_at, 0);
    assert.match(String(body.registration_access_token), /^arg_[A-Za-z0-9_-]{43}$/, 'AS-23 256-bit registration access token');
    assert.equal(body.token_endpoint_auth_method, 'client_secret_post');
    assert.deepEqual(body.grant_types, ['authorization_code', 'refresh_token']);
    assert.deepEqual(body.response_types, ['code']);
    assert.deepEqual(body.redirect_uris, ['https://claude.ai/api/mcp/auth_callback']);
    assert.equal(body.scope, 'mcp offline_access');
    assert.equal(body.client_name, 'Claude');
    const stored = await findClient(h.ctx.store.db, String(body.client_id));
    assert.ok(stored?.secretHash && !stored.secretHash.includes(String(body.client_secret).slice(4)), 'only a keyed hash is stored');
  });

  it('AS-58 a public client (none) gets no secret', async () => {
    const { res, body } = await register({ redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' });
    assert.equal(res.status, 201);
    assert.equal(body.client_secret, undefined);
    assert.equal(body.client_secret_expires_at, undefined);
    assert.equal(body.token_endpoint_auth_method, 'none');
  });

  it('AS-60 an omitted token_endpoint_auth_method defaults to client_secret_basic', async () => {
    const { body } = await register({ redirect_uris: ['https://app.example/cb'] });
    assert.equal(body.token_endpoint_auth_method, 'client_secret_basic');
    assert.ok(body.client_secret);
  });

  it('P16 RFC 7592 read: registration_client_uri answers GET with the registration access token, and only with it', async () => {
    const { body } = await register({ redirect_uris: ['https://app.example/cb'], client_name: 'Reader' });
    const uri = String(body.registration_client_uri);
    assert.equal(uri, `${BASE_URL}/oauth/register/${body.client_id}`);
    const ok = await h.request(uri, { headers: { authorization: `Bearer ${body.registration_access_token}` } });
    assert.equal(ok.status, 200);
    const read = (await ok.json()) as Body;
    assert.equal(read.client_id, body.client_id);
    assert.equal(read.client_name, 'Reader');
    assert.equal(read.client_secret, undefined, 'the secret is never returned again');
    const bad = await h.request(uri, { headers: { authorization: 'Bearer arg_wrong' } });
    assert.equal(bad.status, 401);
    assert.equal(((await bad.json()) as Body).error, 'invalid_token');
    assert.equal((await h.request(uri)).status, 401);
  });

  it('AS-42 registration responses and their errors carry Cache-Control: no-store and Pragma: no-cache', async () => {
    for (const body of [{ redirect_uris: ['https://app.example/cb'] }, { redirect_uris: [] }]) {
      const res = await h.request('/oauth/register', json(body));
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('pragma'), 'no-cache');
    }
  });

  it('AS-4 http redirect URIs are refused unless the host is loopback', async () => {
    await refused({ redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri', /redirect_uris.*loopback/);
    for (const uri of ['http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'http://localhost:3333/callback']) {
      assert.equal((await register({ redirect_uris: [uri] })).res.status, 201, uri);
    }
  });

  it('AS-5 redirect URIs with a fragment are refused', async () => {
    await refused({ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri', /fragment/);
    await refused({ redirect_uris: ['https://app.example/cb#'] }, 'invalid_redirect_uri', /fragment/);
  });

  it('AS-6 dangerous schemes are refused; private-use schemes are stored (and refused at authorize)', async () => {
    await refused({ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri', /scheme/);
    await refused({ redirect_uris: ['data:text/html,hi'] }, 'invalid_redirect_uri', /scheme/);
    const { res } = await register({ redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback', 'http://127.0.0.1/cb'], application_type: 'web' });
    assert.equal(res.status, 201, 'P4: application_type web never rejects loopback or private-use URIs');
  });

  it('AS-59 errors name the field: missing redirect_uris, bad JSON, wrong types', async () => {
    await refused({}, 'invalid_redirect_uri', /redirect_uris/);
    await refused({ redirect_uris: 'https://app.example/cb' }, 'invalid_client_metadata', /redirect_uris/);
    await refused({ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata', /token_endpoint_auth_method/);
    await refused({ redirect_uris: ['https://a.example/cb'], scope: 'admin' }, 'invalid_client_metadata', /scope/);
    const res = await h.request('/oauth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as Body).error, 'invalid_client_metadata');
  });

  it('AS-61 only authorization_code + refresh_token and code; inconsistent lists are refused', async () => {
    await refused({ redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] }, 'invalid_client_metadata', /grant_types/);
    await refused({ redirect_uris: ['https://a.example/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata', /grant_types/);
    await refused({ redirect_uris: ['https://a.example/cb'], grant_types: ['refresh_token'] }, 'invalid_client_metadata', /grant_types/);
    await refused({ redirect_uris: ['https://a.example/cb'], response_types: ['token'] }, 'invalid_client_metadata', /response_types/);
    await refused({ redirect_uris: ['https://a.example/cb'], response_types: [] }, 'invalid_client_metadata', /response_types/);
    const { body } = await register({ redirect_uris: ['https://a.example/cb'], grant_types: ['authorization_code'] });
    assert.deepEqual(body.grant_types, ['authorization_code']);
  });

  it('AS-62 logo_uri, client_uri, policy_uri and tos_uri must be https', async () => {
    for (const field of ['logo_uri', 'client_uri', 'policy_uri', 'tos_uri']) {
      await refused({ redirect_uris: ['https://a.example/cb'], [field]: 'http://a.example/x' }, 'invalid_client_metadata', new RegExp(field));
      await refused({ redirect_uris: ['https://a.example/cb'], [field]: 'javascript:alert(1)' }, 'invalid_client_metadata', new RegExp(field));
    }
    const { res } = await register({ redirect_uris: ['https://a.example/cb'], logo_uri: 'https://a.example/logo.png' });
    assert.equal(res.status, 201);
  });

  it('AS-63 size limits: body ≤ 64 KB, ≤ 10 redirect URIs of ≤ 2 KB, client_name ≤ 200', async () => {
    const big = await h.request('/oauth/register', json({ redirect_uris: ['https://a.example/cb'], padding: 'x'.repeat(70 * 1024) }));
    assert.equal(big.status, 400);
    await refused({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/cb${i}`) }, 'invalid_redirect_uri', /10/);
    await refused({ redirect_uris: [`https://a.example/${'x'.repeat(2100)}`] }, 'invalid_redirect_uri', /2048/);
    await refused({ redirect_uris: ['https://a.example/cb'], client_name: 'n'.repeat(201) }, 'invalid_client_metadata', /client_name/);
  });

  it('AS-33 registration cannot set client_id, client_secret or trust flags, and client_name cannot hide control characters', async () => {
    const { body } = await register({ redirect_uris: ['https://a.example/cb'], client_id: 'chosen', client_secret: 'chosen-secret', skip_consent: true, trusted: true, first_party: true, token_endpoint_auth_method: 'client_secret_basic' });
    assert.notEqual(body.client_id, 'chosen');
    assert.notEqual(body.client_secret, 'chosen-secret');
    for (const key of ['skip_consent', 'trusted', 'first_party']) assert.equal(body[key], undefined);
    const stored = await findClient(h.ctx.store.db, String(body.client_id));
    assert.equal(stored?.kind, 'dynamic');
    for (const name of ['Admin\u202e', 'Your\nBank', 'Zero\u200bwidth', 'Tab\there']) {
      await refused({ redirect_uris: ['https://a.example/cb'], client_name: name }, 'invalid_client_metadata', /client_name/);
    }
  });

  it('P11 a scope-less registration gets mcp offline_access; OIDC identity scopes are dropped', async () => {
    assert.equal((await register({ redirect_uris: ['https://a.example/cb'] })).body.scope, 'mcp offline_access');
    assert.equal((await register({ redirect_uris: ['https://a.example/cb'], scope: 'openid email profile' })).body.scope, 'mcp offline_access');
    assert.equal((await register({ redirect_uris: ['https://a.example/cb'], scope: 'mcp openid' })).body.scope, 'mcp');
  });

  it('registrations are audited', async () => {
    const { body } = await register({ redirect_uris: ['https://a.example/cb'], client_name: 'Audited' });
    const events = await listAuditEvents(h.ctx.store.db, { kind: 'client_registered', clientId: String(body.client_id) });
    assert.equal(events.length, 1);
    assert.equal(events[0]?.detail.client_name, 'Audited');
  });

  it('AS-64 abandoned clients are garbage-collected; use renews the lease; a client with a live grant stays', async () => {
    const day = 24 * 3600 * 1000;
    const idle = (await register({ redirect_uris: ['https://a.example/cb'] })).body.client_id as string;
    const used = (await register({ redirect_uris: ['https://a.example/cb'] })).body.client_id as string;
    const granted = (await register({ redirect_uris: ['https://a.example/cb'] })).body.client_id as string;
    const longAgo = Date.now() - 31 * day;
    for (const id of [idle, used, granted]) await touchClient(h.ctx.store.db, id, longAgo);
    await touchClient(h.ctx.store.db, used, Date.now());
    await issueGrantTokens(h.ctx, { userId: 'u', orgId: 'o', clientId: granted, scopes: ['mcp'], resource: `${BASE_URL}/mcp` });
    const consent = (clientId: string) => ({ orgId: 'o', userId: 'u', clientId, redirectUri: 'https://a.example/cb', resource: `${BASE_URL}/mcp` });
    for (const id of [idle, used]) await rememberConsent(h.ctx.store.db, consent(id), 'mcp', longAgo);
    const removed = await collectAbandonedClients(h.ctx);
    assert.ok(removed.includes(idle));
    assert.ok(!removed.includes(used));
    assert.ok(!removed.includes(granted));
    assert.equal(await findClient(h.ctx.store.db, idle), undefined);
    assert.ok(await findClient(h.ctx.store.db, used));
    assert.equal(await findConsentScope(h.ctx.store.db, consent(idle)), undefined, 'a removed client is forgotten with its consents');
    assert.equal(await findConsentScope(h.ctx.store.db, consent(used)), 'mcp', 'a kept one keeps them');
    assert.equal((await listAuditEvents(h.ctx.store.db, { kind: 'client_removed', clientId: idle })).length, 1, 'the removal is audited');
    for (const kept of [used, granted]) assert.equal((await listAuditEvents(h.ctx.store.db, { kind: 'client_removed', clientId: kept })).length, 0, 'a kept client has no removal event');
    assert.deepEqual(await collectAbandonedClients(h.ctx), [], 'a second run finds nothing left');
  });
});

describe('registration rate limits', () => {
  it('AS-64 P12 registration is rate limited per IP with 429 and Retry-After', async () => {
    const h = await startHarness('sqlite', { OAUTH_REGISTER_PER_HOUR: '3' });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await h.request('/oauth/register', json({ redirect_uris: ['https://a.example/cb'] }));
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [201, 201, 201, 429, 429]);
      assert.match(last?.headers.get('retry-after') ?? '', /^\d+$/);
      assert.equal(((await last?.json()) as Body).error, 'too_many_requests');
    } finally {
      await h.close();
    }
  });
});

for (const dialect of dialectsUnderTest()) {
  describe(`client metadata text is checked before it is stored (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(dialect);
    });
    after(async () => h.close());

    const base = { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'none' };
    const clientCount = async () => (await h.ctx.store.db.selectFrom('oauth_clients').select('client_id').execute()).length;
    // NUL is what PostgreSQL refuses in text; the rest are C0, DEL and C1 controls, and a lone surrogate.
    const BAD = ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\ud800'];
    const TEXT_FIELDS: Record<string, (bad: string) => unknown> = {
      software_id: (bad) => `4NRB1-0XZABZI9E6-5SM3R${bad}`,
      software_version: (bad) => `1.2${bad}`,
      client_name: (bad) => `Client${bad}`,
      application_type: (bad) => `web${bad}`,
      client_uri: (bad) => `https://a.example/${bad}`,
      logo_uri: (bad) => `https://a.example/logo${bad}.png`,
      policy_uri: (bad) => `https://a.example/policy${bad}`,
      tos_uri: (bad) => `https://a.example/tos${bad}`,
      scope: (bad) => `mcp${bad}`,
      grant_types: (bad) => ['authorization_code', `refresh_token${bad}`],
      response_types: (bad) => [`code${bad}`],
      token_endpoint_auth_method: (bad) => `none${bad}`,
    };

    it('AS-33 AS-59 a NUL or other control character in any text field is invalid_client_metadata naming the field, never a 500', async () => {
      const before = await clientCount();
      for (const [field, value] of Object.entries(TEXT_FIELDS)) {
        for (const bad of BAD) {
          const res = await h.request('/oauth/register', json({ ...base, [field]: value(bad) }));
          const body = (await res.json()) as Body;
          assert.equal(res.status, 400, `${field} ${JSON.stringify(bad)}: ${JSON.stringify(body)}`);
          assert.equal(body.error, 'invalid_client_metadata', field);
          assert.match(String(body.error_description), new RegExp(`^${field}: must not contain control characters`), field);
          assert.equal(res.headers.get('cache-control'), 'no-store');
        }
      }
      assert.equal(await clientCount(), before, 'nothing was stored');
    });

    it('AS-5 a control character in a redirect URI is invalid_redirect_uri, never a 500', async () => {
      for (const bad of BAD) {
        const res = await h.request('/oauth/register', json({ ...base, redirect_uris: ['https://a.example/cb', `https://a.example/c${bad}b`] }));
        const body = (await res.json()) as Body;
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(body.error, 'invalid_redirect_uri');
        assert.match(String(body.error_description), /^redirect_uris: must not contain control characters/);
      }
    });

    it('non-ASCII text without control characters is stored and read back unchanged', async () => {
      const res = await h.request('/oauth/register', json({ ...base, client_name: 'Ünïcödé — クライアント', software_id: 'sw-β', software_version: '2.0 “final”' }));
      const body = (await res.json()) as Body;
      assert.equal(res.status, 201, JSON.stringify(body));
      const stored = await findClient(h.ctx.store.db, String(body.client_id));
      assert.equal(stored?.clientName, 'Ünïcödé — クライアント');
      assert.equal(stored?.softwareId, 'sw-β');
      assert.equal(stored?.softwareVersion, '2.0 “final”');
    });
  });
}
