import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTokenVerifier, issueGrantTokens } from '../../src/auth-server/index.ts';
import { housekeeping } from '../../src/auth-server/jobs.ts';
import { keyedHash } from '../../src/auth-server/secrets.ts';
import { listAuditEvents } from '../../src/store/audit-events.ts';
import { findGrant } from '../../src/store/oauth-grants.ts';
import { BASE_URL, form, registerClient, startHarness, type Harness, type RegisteredClient } from './harness.ts';

type Body = Record<string, unknown>;

describe('token endpoint: refresh_token', () => {
  let h: Harness;
  let client: RegisteredClient;
  before(async () => {
    h = await startHarness('sqlite');
    client = await registerClient(h);
  });
  after(async () => h.close());

  const grant = (scopes = ['mcp', 'offline_access'], clientId = client.client_id) =>
    issueGrantTokens(h.ctx, { userId: 'usr_r', orgId: 'org_r', clientId, scopes, resource: `${BASE_URL}/mcp` });
  const refresh = async (refreshToken: string, extra: Record<string, string> = {}, c: RegisteredClient = client) => {
    const res = await h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: c.client_id, ...extra }));
    return { res, body: (await res.json()) as Body };
  };
  const rotatedAgo = (refreshToken: string, ms: number) =>
    h.ctx.store.db
      .updateTable('oauth_refresh_tokens')
      .set({ rotated_at: Date.now() - ms })
      .where('token_hash', '=', keyedHash(h.ctx.config.secrets.hash, refreshToken))
      .execute();

  it('AS-47 every refresh rotates the refresh token and keeps the grant scope', async () => {
    const t = await grant();
    const r = await refresh(t.refreshToken);
    assert.equal(r.res.status, 200);
    assert.notEqual(r.body.refresh_token, t.refreshToken);
    assert.equal(r.body.scope, 'mcp offline_access');
    assert.equal(r.body.token_type, 'Bearer');
  });

  it('AS-45 a refresh token presented by another client is invalid_grant', async () => {
    const t = await grant();
    const other = await registerClient(h);
    const r = await refresh(t.refreshToken, {}, other);
    assert.equal(r.res.status, 400);
    assert.equal(r.body.error, 'invalid_grant');
    assert.equal((await refresh(t.refreshToken)).res.status, 200, 'and revoked nothing');
  });

  it('AS-46 a refresh may narrow the scope, never widen it; the rotated token keeps the original scope', async () => {
    const t = await grant(['mcp']);
    const wider = await refresh(t.refreshToken, { scope: 'mcp offline_access' });
    assert.equal(wider.body.error, 'invalid_scope');
    const t2 = await grant();
    const narrow = await refresh(t2.refreshToken, { scope: 'mcp' });
    assert.equal(narrow.body.scope, 'mcp');
    const check = await createTokenVerifier(h.ctx).verify(String(narrow.body.access_token));
    assert.ok(check.ok);
    assert.deepEqual(check.auth.scopes, ['mcp']);
    const again = await refresh(String(narrow.body.refresh_token));
    assert.equal(again.body.scope, 'mcp offline_access', 'the next refresh still has the consented scope');
  });

  it('AS-54 P7 a refresh naming a foreign resource is invalid_target; the trailing-slash spelling is the same resource', async () => {
    const t = await grant();
    assert.equal((await refresh(t.refreshToken, { resource: 'https://elsewhere.example/mcp' })).body.error, 'invalid_target');
    assert.equal((await refresh(t.refreshToken, { resource: `${BASE_URL}/mcp/` })).res.status, 200);
  });

  it('AS-49 within the grace window an identical retry gets the same response and revokes nothing', async () => {
    const t = await grant();
    const first = await refresh(t.refreshToken);
    const retry = await refresh(t.refreshToken);
    assert.equal(retry.res.status, 200);
    assert.deepEqual(retry.body, first.body);
    assert.equal(retry.res.headers.get('cache-control'), 'no-store');
    assert.ok((await createTokenVerifier(h.ctx).verify(String(first.body.access_token))).ok);
    const different = await refresh(t.refreshToken, { scope: 'mcp' });
    assert.equal(different.body.error, 'invalid_grant', 'a different request within the window is refused');
    assert.equal((await findGrant(h.ctx.store.db, t.grantId))?.revokedAt, null, 'but does not revoke');
  });

  it('AS-49 the grace response is stored only encrypted, and forgotten after the window', async () => {
    const t = await grant();
    const first = await refresh(t.refreshToken);
    const row = await h.ctx.store.db
      .selectFrom('oauth_refresh_tokens')
      .selectAll()
      .where('token_hash', '=', keyedHash(h.ctx.config.secrets.hash, t.refreshToken))
      .executeTakeFirstOrThrow();
    assert.ok(row.grace_response_enc);
    assert.ok(!row.grace_response_enc.includes(String(first.body.access_token)));
    assert.ok(!Buffer.from(row.grace_response_enc, 'base64url').toString('latin1').includes('aat_'));
    await rotatedAgo(t.refreshToken, 60_000);
    await housekeeping(h.ctx);
    const after = await h.ctx.store.db
      .selectFrom('oauth_refresh_tokens')
      .select('grace_response_enc')
      .where('token_hash', '=', keyedHash(h.ctx.config.secrets.hash, t.refreshToken))
      .executeTakeFirstOrThrow();
    assert.equal(after.grace_response_enc, null);
  });

  it('AS-48 reuse of a rotated refresh token outside the grace window revokes the grant and is audited', async () => {
    const t = await grant();
    const first = await refresh(t.refreshToken);
    await rotatedAgo(t.refreshToken, 31_000);
    const reuse = await refresh(t.refreshToken);
    assert.equal(reuse.res.status, 400);
    assert.equal(reuse.body.error, 'invalid_grant');
    assert.equal((await createTokenVerifier(h.ctx).verify(String(first.body.access_token))).ok, false, 'the newest access token is dead');
    assert.equal((await refresh(String(first.body.refresh_token))).body.error, 'invalid_grant', 'the newest refresh token is dead');
    assert.equal((await createTokenVerifier(h.ctx).verify(t.accessToken)).ok, false, 'every access token of the grant is dead');
    const events = await listAuditEvents(h.ctx.store.db, { kind: 'rt_reuse_detected', clientId: client.client_id });
    assert.ok(events.some((e) => e.detail.grant_id === t.grantId && e.detail.client_name === 'Test client'));
  });

  it('AS-50 refresh tokens die after the idle TTL and at the absolute cap', async () => {
    const idle = await grant();
    await h.ctx.store.db.updateTable('oauth_refresh_tokens').set({ expires_at: Date.now() - 1 }).where('grant_id', '=', idle.grantId).execute();
    assert.equal((await refresh(idle.refreshToken)).body.error, 'invalid_grant');
    const capped = await grant();
    await h.ctx.store.db.updateTable('oauth_grants').set({ expires_at: Date.now() - 1 }).where('id', '=', capped.grantId).execute();
    assert.equal((await refresh(capped.refreshToken)).body.error, 'invalid_grant');
    const fresh = await grant();
    const row = await h.ctx.store.db.selectFrom('oauth_refresh_tokens').selectAll().where('grant_id', '=', fresh.grantId).executeTakeFirstOrThrow();
    assert.equal(row.expires_at - row.created_at, 30 * 24 * 3600 * 1000, '30 days idle by default');
    const g = await findGrant(h.ctx.store.db, fresh.grantId);
    assert.equal((g?.expiresAt ?? 0) - (g?.createdAt ?? 0), 90 * 24 * 3600 * 1000, '90 days absolute by default');
  });

  it('AS-52 a dead refresh token always answers invalid_grant, never invalid_request', async () => {
    const t = await grant();
    await h.request('/oauth/revoke', form({ token: t.refreshToken, client_id: client.client_id }));
    for (const token of [t.refreshToken, 'art_unknown', 'garbage']) {
      const r = await refresh(token);
      assert.equal(r.res.status, 400);
      assert.equal(r.body.error, 'invalid_grant', token);
    }
  });
});
