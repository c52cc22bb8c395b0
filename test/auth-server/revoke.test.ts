import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTokenVerifier, issueGrantTokens } from '../../src/auth-server/index.ts';
import { listAuditEvents } from '../../src/store/audit-events.ts';
import { BASE_URL, form, registerClient, startHarness, type Harness, type RegisteredClient } from './harness.ts';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('revocation endpoint (RFC 7009)', () => {
  let h: Harness;
  let pub: RegisteredClient;
  let conf: RegisteredClient & { client_secret: string };
  before(async () => {
    h = await startHarness('sqlite');
    pub = await registerClient(h);
    conf = (await registerClient(h, { token_endpoint_auth_method: 'client_secret_basic' })) as typeof conf;
  });
  after(async () => h.close());

  const tokensFor = (clientId: string) => issueGrantTokens(h.ctx, { userId: 'usr_v', orgId: 'org_v', clientId, scopes: ['mcp'], resource: `${BASE_URL}/mcp` });
  const live = async (accessToken: string) => (await createTokenVerifier(h.ctx).verify(accessToken)).ok;
  const refreshWorks = async (refreshToken: string, clientId: string) =>
    (await h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }))).status === 200;
  const revoke = (fields: Record<string, string>) => h.request('/oauth/revoke', form(fields));

  it('AS-67 revoking a refresh token revokes the whole grant', async () => {
    const t = await tokensFor(pub.client_id);
    const res = await revoke({ token: t.refreshToken, token_type_hint: 'refresh_token', client_id: pub.client_id });
    assert.equal(res.status, 200);
    assert.equal(await live(t.accessToken), false);
    assert.equal(await refreshWorks(t.refreshToken, pub.client_id), false);
    assert.equal((await listAuditEvents(h.ctx.store.db, { kind: 'grant_revoked', clientId: pub.client_id })).length, 1);
  });

  it('AS-67 revoking an access token revokes that token only', async () => {
    const t = await tokensFor(pub.client_id);
    assert.equal((await revoke({ token: t.accessToken, client_id: pub.client_id })).status, 200);
    assert.equal(await live(t.accessToken), false);
    assert.equal(await refreshWorks(t.refreshToken, pub.client_id), true);
  });

  it('AS-68 token_type_hint is not binding: a wrong hint still revokes', async () => {
    const t = await tokensFor(pub.client_id);
    assert.equal((await revoke({ token: t.accessToken, token_type_hint: 'refresh_token', client_id: pub.client_id })).status, 200);
    assert.equal(await live(t.accessToken), false);
    const u = await tokensFor(pub.client_id);
    assert.equal((await revoke({ token: u.refreshToken, token_type_hint: 'access_token', client_id: pub.client_id })).status, 200);
    assert.equal(await live(u.accessToken), false);
    assert.equal((await revoke({ token: u.refreshToken, token_type_hint: 'bogus_hint', client_id: pub.client_id })).status, 200);
  });

  it('AS-66 unknown, invalid and already-revoked tokens answer 200 with an empty body', async () => {
    const t = await tokensFor(pub.client_id);
    await revoke({ token: t.refreshToken, client_id: pub.client_id });
    for (const token of ['aat_unknown', 'nonsense', t.refreshToken, t.accessToken]) {
      const res = await revoke({ token, client_id: pub.client_id });
      assert.equal(res.status, 200, token);
      assert.equal(await res.text(), '');
    }
  });

  it('AS-65 another client’s token: 200 and nothing happens', async () => {
    const other = await registerClient(h);
    const t = await tokensFor(pub.client_id);
    assert.equal((await revoke({ token: t.refreshToken, client_id: other.client_id })).status, 200);
    assert.equal((await revoke({ token: t.accessToken, client_id: other.client_id })).status, 200);
    assert.equal(await live(t.accessToken), true);
    assert.equal(await refreshWorks(t.refreshToken, pub.client_id), true);
  });

  it('AS-65 a confidential client must authenticate to revoke', async () => {
    const t = await tokensFor(conf.client_id);
    const unauth = await revoke({ token: t.accessToken, client_id: conf.client_id });
    assert.equal(unauth.status, 401);
    assert.equal(((await unauth.json()) as { error: string }).error, 'invalid_client');
    assert.equal(await live(t.accessToken), true);
    const ok = await h.request('/oauth/revoke', { ...form({ token: t.accessToken }), headers: { ...form({}).headers, authorization: basic(conf.client_id, conf.client_secret) } });
    assert.equal(ok.status, 200);
    assert.equal(await live(t.accessToken), false);
  });

  it('AS-69 revocation responses carry Cache-Control: no-store', async () => {
    const res = await revoke({ token: 'aat_x', client_id: pub.client_id });
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const err = await revoke({ client_id: pub.client_id });
    assert.equal(err.status, 400);
    assert.equal(err.headers.get('cache-control'), 'no-store');
  });

  it('AS-39 the revocation endpoint is rate limited too', async () => {
    const limited = await startHarness('sqlite', { OAUTH_REQUESTS_PER_MINUTE: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.request('/oauth/revoke', form({ token: 'aat_x', client_id: 'cli_x' }))).status);
      assert.equal(statuses[2], 429);
    } finally {
      await limited.close();
    }
  });
});
