import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTokenVerifier } from '../../src/auth-server/index.ts';
import { listAuditEvents } from '../../src/store/audit-events.ts';
import { setUserStatus } from '../../src/store/users.ts';
import { runCli } from '../support/cli.ts';
import { authorizeAndApprove, authorizeUrl, exchange, pkce, form, registerClient, signedInBrowser, startHarness, type Browser, type Harness, type RegisteredClient } from './harness.ts';

type Body = Record<string, string>;

describe('connected apps', () => {
  let h: Harness;
  let client: RegisteredClient;
  before(async () => {
    h = await startHarness('sqlite');
    client = await registerClient(h, { client_name: 'Connected <b>App</b>' });
  });
  after(async () => h.close());

  const connect = async (b: Browser) => {
    const { code, verifier } = await authorizeAndApprove(h, b, client);
    return (await (await exchange(h, client, code, verifier)).json()) as Body;
  };
  const csrfOf = (page: string) => /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const grantIdsOf = (page: string) => [...page.matchAll(/name="grant_id" value="([^"]+)"/g)].map((m) => m[1] ?? '');

  it('AS-34 a user lists their connected apps (escaped name, scope, dates) and disconnects one with a CSRF-protected POST', async () => {
    const b = await signedInBrowser(h);
    const tokens = await connect(b);
    const res = await b.get('/account/connected-apps');
    assert.equal(res.status, 200);
    const page = await res.text();
    assert.ok(page.includes('Connected &lt;b&gt;App&lt;/b&gt;'));
    assert.match(page, /<code>mcp<\/code>/);
    assert.match(page, new RegExp(new Date().toISOString().slice(0, 10)));
    const [grantId] = grantIdsOf(page);
    assert.ok(grantId);
    const forged = await b.post('/account/connected-apps/revoke', { grant_id: grantId, csrf_token: 'forged' });
    assert.equal(forged.status, 400);
    assert.ok((await createTokenVerifier(h.ctx).verify(tokens.access_token ?? '')).ok, 'a forged POST revokes nothing');
    const ok = await b.post('/account/connected-apps/revoke', { grant_id: grantId, csrf_token: csrfOf(page) });
    assert.equal(ok.status, 303);
    assert.equal((await createTokenVerifier(h.ctx).verify(tokens.access_token ?? '')).ok, false);
    const refresh = await h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: client.client_id }));
    assert.equal(((await refresh.json()) as Body).error, 'invalid_grant');
    assert.deepEqual(grantIdsOf(await (await b.get('/account/connected-apps')).text()), []);
    assert.ok((await listAuditEvents(h.ctx.store.db, { kind: 'grant_revoked' })).some((e) => e.detail.grant_id === grantId && e.detail.by === 'revoked_by_user'));
  });

  it('AS-34 AS-35 after disconnecting, the next authorization asks for consent again', async () => {
    const b = await signedInBrowser(h);
    await connect(b);
    const page = await (await b.get('/account/connected-apps')).text();
    await b.post('/account/connected-apps/revoke', { grant_id: grantIdsOf(page)[0] ?? '', csrf_token: csrfOf(page) });
    assert.equal((await b.get(authorizeUrl(client, pkce().challenge))).status, 200, 'the consent page, not a silent redirect');
  });

  it('AS-34 a member cannot revoke a colleague’s grant; an admin of the organization can', async () => {
    const owner = await signedInBrowser(h);
    const tokens = await connect(owner);
    const grantId = grantIdsOf(await (await owner.get('/account/connected-apps')).text())[0] ?? '';
    // Each of them has an app of their own, so their page carries a revoke form (a valid CSRF
    // token): their POST reaches the permission check instead of stopping at "form expired".
    const colleague = await signedInBrowser(h, { orgId: owner.orgId });
    await connect(colleague);
    const colleaguePage = await (await colleague.get('/account/connected-apps')).text();
    assert.ok(csrfOf(colleaguePage));
    assert.ok(!grantIdsOf(colleaguePage).includes(grantId), 'a member sees only their own');
    assert.equal((await colleague.post('/account/connected-apps/revoke', { grant_id: grantId, csrf_token: csrfOf(colleaguePage) })).status, 303);
    assert.ok((await createTokenVerifier(h.ctx).verify(tokens.access_token ?? '')).ok, 'still live');
    const outsider = await signedInBrowser(h, { role: 'admin' });
    await connect(outsider);
    const outsiderPage = await (await outsider.get('/account/connected-apps')).text();
    assert.ok(csrfOf(outsiderPage));
    assert.equal((await outsider.post('/account/connected-apps/revoke', { grant_id: grantId, csrf_token: csrfOf(outsiderPage) })).status, 303);
    assert.ok((await createTokenVerifier(h.ctx).verify(tokens.access_token ?? '')).ok, 'an admin of another organization cannot');
    const admin = await signedInBrowser(h, { orgId: owner.orgId, role: 'admin' });
    const adminPage = await (await admin.get('/account/connected-apps')).text();
    assert.ok(grantIdsOf(adminPage).includes(grantId), 'the admin sees the organization’s grants');
    assert.ok(adminPage.includes(owner.email));
    assert.equal((await admin.post('/account/connected-apps/revoke', { grant_id: grantId, csrf_token: csrfOf(adminPage) })).status, 303);
    assert.equal((await createTokenVerifier(h.ctx).verify(tokens.access_token ?? '')).ok, false);
  });

  it('the page sends signed-out browsers to sign-in', async () => {
    const res = await h.request('/account/connected-apps');
    assert.equal(res.status, 302);
    assert.match(res.headers.get('location') ?? '', /return_to=%2Faccount%2Fconnected-apps/);
  });

  it('AS-51 a disabled user’s tokens stop working and their refresh tokens are refused', async () => {
    const b = await signedInBrowser(h);
    const tokens = await connect(b);
    await setUserStatus(h.ctx.store.db, b.orgId, b.userId, 'disabled');
    const mcp = await h.request('/mcp', {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token ?? ''}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    assert.equal(mcp.status, 403);
    assert.match(((await mcp.json()) as { error_description?: string }).error_description ?? '', /disabled/);
    const refresh = await h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: client.client_id }));
    assert.equal(((await refresh.json()) as Body).error, 'invalid_grant');
  });
});

describe('agent-access grants', () => {
  it('AS-34 lists an organization’s grants and revokes one', async () => {
    const h = await startHarness('sqlite');
    try {
      const client = await registerClient(h, { client_name: 'CLI listed' });
      const b = await signedInBrowser(h);
      const { code, verifier } = await authorizeAndApprove(h, b, client);
      const tokens = (await (await exchange(h, client, code, verifier)).json()) as Body;
      // The CLI opens the same database file the harness uses.
      const env = { DATABASE_URL: h.databaseUrl, HASH_SECRET: h.ctx.config.secrets.hash, ENCRYPTION_KEY: h.ctx.config.secrets.encryptionKey.toString('base64'), LOG_LEVEL: 'silent' };
      const listed = await runCli(['grants', 'list', '--org', b.orgId], env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /CLI listed/);
      assert.ok(listed.stdout.includes(b.email));
      const grantId = /grt_[0-9a-z]+/.exec(listed.stdout)?.[0] ?? '';
      const revoked = await runCli(['grants', 'revoke', grantId], env);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.equal((await createTokenVerifier(h.ctx).verify(tokens.access_token ?? '')).ok, false);
      const again = await runCli(['grants', 'revoke', grantId], env);
      assert.equal(again.code, 1);
      assert.equal((await runCli(['grants'], env)).code, 2);
    } finally {
      await h.close();
    }
  });
});
