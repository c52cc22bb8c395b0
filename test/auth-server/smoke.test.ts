import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTokenVerifier } from '../../src/auth-server/index.ts';
import { authorizeAndApprove, exchange, form, registerClient, signedInBrowser, startHarness, type Harness } from './harness.ts';

describe('the whole flow in process', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('sqlite');
  });
  after(async () => h.close());

  it('registers, authorizes with consent, exchanges, verifies, refreshes and revokes', async () => {
    const client = await registerClient(h);
    const browser = await signedInBrowser(h);
    const { code, verifier, redirect } = await authorizeAndApprove(h, browser, client);
    assert.equal(redirect.searchParams.get('state'), 'st-1');
    const res = await exchange(h, client, code, verifier);
    const body = (await res.json()) as Record<string, string>;
    assert.equal(res.status, 200, JSON.stringify(body));
    const check = await createTokenVerifier(h.ctx).verify(body.access_token ?? '');
    assert.ok(check.ok);
    assert.equal(check.auth.userId, browser.userId);
    const refreshed = await h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: body.refresh_token ?? '', client_id: client.client_id }));
    assert.equal(refreshed.status, 200, await refreshed.clone().text());
    const next = (await refreshed.json()) as Record<string, string>;
    const revoked = await h.request('/oauth/revoke', form({ token: next.refresh_token ?? '', client_id: client.client_id }));
    assert.equal(revoked.status, 200);
    assert.equal((await createTokenVerifier(h.ctx).verify(next.access_token ?? '')).ok, false);
  });
});
