import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { authorizeAndApprove, BASE_URL, form, json, registerClient, signedInBrowser, startHarness, type Harness } from './harness.ts';

describe('discovery metadata and CORS', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('sqlite');
  });
  after(async () => h.close());

  it('AS-70 authorization server metadata has the exact issuer and every required field', async () => {
    const res = await h.request('/.well-known/oauth-authorization-server');
    assert.equal(res.status, 200);
    const m = (await res.json()) as Record<string, unknown>;
    assert.equal(m.issuer, BASE_URL);
    assert.equal(m.authorization_endpoint, `${BASE_URL}/oauth/authorize`);
    assert.equal(m.token_endpoint, `${BASE_URL}/oauth/token`);
    assert.equal(m.registration_endpoint, `${BASE_URL}/oauth/register`);
    assert.equal(m.revocation_endpoint, `${BASE_URL}/oauth/revoke`);
    assert.deepEqual(m.response_types_supported, ['code']);
    assert.deepEqual(m.grant_types_supported, ['authorization_code', 'refresh_token']);
    assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(m.token_endpoint_auth_methods_supported, ['none', 'client_secret_basic', 'client_secret_post']);
    assert.deepEqual(m.revocation_endpoint_auth_methods_supported, ['none', 'client_secret_basic', 'client_secret_post']);
    assert.deepEqual(m.scopes_supported, ['mcp', 'offline_access']);
    assert.equal(m.authorization_response_iss_parameter_supported, true);
    assert.equal(m.client_id_metadata_document_supported, true);
  });

  it('AS-71 protected resource metadata names the canonical resource and the same issuer, on both paths', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await h.request(path);
      assert.equal(res.status, 200, path);
      assert.deepEqual(await res.json(), {
        resource: `${BASE_URL}/mcp`,
        authorization_servers: [BASE_URL],
        scopes_supported: ['mcp'],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('AS-72 metadata is application/json, CORS-open and cacheable', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await h.request(path, { headers: { origin: 'https://inspector.example' } });
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.doesNotMatch(res.headers.get('cache-control') ?? '', /no-store/);
    }
  });

  it('AS-26 P6 the issuer string is byte-identical in AS metadata, PRM and the iss of a redirect', async () => {
    const as = (await (await h.request('/.well-known/oauth-authorization-server')).json()) as { issuer: string };
    const prm = (await (await h.request('/.well-known/oauth-protected-resource')).json()) as { authorization_servers: string[] };
    const client = await registerClient(h);
    const { redirect } = await authorizeAndApprove(h, await signedInBrowser(h), client);
    const issuers = [as.issuer, prm.authorization_servers[0], redirect.searchParams.get('iss'), h.ctx.config.baseUrl];
    for (const issuer of issuers) assert.equal(issuer, BASE_URL);
    assert.ok(!BASE_URL.endsWith('/'));
  });

  it('AS-69 P14 token, register and revoke answer CORS preflights and requests from any origin', async () => {
    for (const path of ['/oauth/token', '/oauth/register', '/oauth/revoke']) {
      const pre = await h.request(path, {
        method: 'OPTIONS',
        headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
      });
      assert.ok(pre.status === 204 || pre.status === 200, `${path} preflight ${pre.status}`);
      assert.equal(pre.headers.get('access-control-allow-origin'), '*');
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /authorization/i);
    }
    const res = await h.request('/oauth/revoke', { ...form({ token: 'x', client_id: 'nope' }), headers: { ...form({}).headers, origin: 'https://inspector.example' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const reg = await h.request('/oauth/register', { ...json({}), headers: { 'content-type': 'application/json', origin: 'https://x.example' } });
    assert.equal(reg.headers.get('access-control-allow-origin'), '*');
    assert.match(reg.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/i);
  });

  it('AS-9 no CORS headers on /oauth/authorize, even for an Origin request or a preflight', async () => {
    const client = await registerClient(h);
    const res = await h.request(`/oauth/authorize?client_id=${client.client_id}`, { headers: { origin: 'https://evil.example' } });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    const pre = await h.request('/oauth/authorize', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
  });

  it('AS-74 issuer and URLs come from configuration, never from the Host header', async () => {
    const res = await h.request('/.well-known/oauth-authorization-server', { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
    const m = (await res.json()) as Record<string, string>;
    assert.equal(m.issuer, BASE_URL);
    assert.ok(Object.values(m).every((v) => typeof v !== 'string' || !v.includes('evil')));
  });

  it('AS-73 HSTS is sent on the auth pages when the base URL is https', async () => {
    const res = await h.request('/oauth/authorize');
    assert.match(res.headers.get('strict-transport-security') ?? '', /max-age=\d+/);
  });
});
