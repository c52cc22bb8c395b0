// Expired rows: every read refuses them itself, and only the periodic job deletes them (request
// paths never clean up). Time passing is simulated by moving a row's expiry into the past.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { housekeeping } from '../../src/auth-server/jobs.ts';
import { createBrowserIdentity } from '../../src/identity/index.ts';
import { saveLoginState } from '../../src/identity/upstream/login-states.ts';
import { dialectsUnderTest } from '../support/databases.ts';
import { signedInBrowser, startHarness, type Harness } from './harness.ts';

for (const dialect of dialectsUnderTest()) {
  describe(`expired rows are never honoured and are removed by the periodic job (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(dialect);
    });
    after(async () => h.close());

    const sessionsOf = async (userId: string) => (await h.ctx.store.db.selectFrom('browser_sessions').select('id_hash').where('user_id', '=', userId).execute()).length;

    it('an ended browser session signs no one in, and the job removes it but not a live one', async () => {
      const ended = await signedInBrowser(h);
      const live = await signedInBrowser(h);
      assert.equal((await ended.get('/account')).status, 200);
      await h.ctx.store.db.updateTable('browser_sessions').set({ expires_at: Date.now() - 1 }).where('user_id', '=', ended.userId).execute();
      const res = await ended.get('/account');
      assert.equal(res.status, 302, 'the expired session is refused on read');
      assert.match(res.headers.get('location') ?? '', /\/signin\?return_to=%2Faccount$/);
      assert.equal(await sessionsOf(ended.userId), 1, 'the read did not delete it');

      await housekeeping(h.ctx);
      assert.equal(await sessionsOf(ended.userId), 0);
      assert.equal(await sessionsOf(live.userId), 1);
      assert.equal((await live.get('/account')).status, 200);
    });

    it('an expired upstream sign-in attempt is refused at the callback, and the job removes expired attempts only', async () => {
      const hashKey = h.ctx.config.secrets.hash;
      const attempt = { provider: 'google', ssoOrgId: null, codeVerifier: 'v'.repeat(43), nonce: 'n', returnTo: null, signupSource: null } as const;
      const browser = 'b'.repeat(43);
      for (const state of ['expired-one', 'expired-two', 'expired-three']) await saveLoginState(h.ctx.store.db, hashKey, state, browser, attempt);
      const attempts = () => h.ctx.store.db.selectFrom('upstream_login_states').select('expires_at').execute();
      await h.ctx.store.db.updateTable('upstream_login_states').set({ expires_at: Date.now() - 1 }).execute();
      await saveLoginState(h.ctx.store.db, hashKey, 'live-two', browser, attempt);
      assert.equal((await attempts()).length, 4, 'starting an attempt deletes no other, expired or not');

      const cookie = `${createBrowserIdentity(h.ctx).cookies.names.browser}=${browser}`;
      const callback = await h.request('/login_google/callback?state=expired-one&code=x', { headers: { cookie }, redirect: 'manual' });
      assert.equal(callback.status, 400);
      assert.match(await callback.text(), /data-reason="login_state_invalid"/);

      await housekeeping(h.ctx);
      const left = await attempts();
      assert.equal(left.length, 1, 'the expired ones are gone, live-two stays');
      assert.ok(Number(left[0]?.expires_at) > Date.now());
    });
  });
}
