import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTokenVerifier, issueGrantTokens } from '../../src/auth-server/index.ts';
import { dialectsUnderTest } from '../support/databases.ts';
import { authorizeAndApprove, BASE_URL, exchange, form, registerClient, signedInBrowser, startHarness, type Harness } from './harness.ts';

type Body = Record<string, unknown>;
const N = 50;

for (const dialect of dialectsUnderTest()) {
  describe(`concurrent code exchange and refresh (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(dialect);
    });
    after(async () => h.close());

    it(`AS-24 ${N} concurrent exchanges of one code yield exactly one token`, async () => {
      const client = await registerClient(h);
      const { code, verifier } = await authorizeAndApprove(h, await signedInBrowser(h), client);
      const responses = await Promise.all(Array.from({ length: N }, () => exchange(h, client, code, verifier)));
      const bodies = (await Promise.all(responses.map((r) => r.json()))) as Body[];
      const ok = responses.filter((r) => r.status === 200);
      assert.equal(ok.length, 1, `statuses: ${responses.map((r) => r.status).join(',')}`);
      assert.equal(bodies.filter((b) => b.error === 'invalid_grant').length, N - 1);
      const grants = await h.ctx.store.db.selectFrom('oauth_grants').select('id').where('client_id', '=', client.client_id).execute();
      assert.equal(grants.length, 1, 'one grant, one token pair');
      const tokens = await h.ctx.store.db.selectFrom('oauth_access_tokens').select('token_hash').where('grant_id', '=', grants[0]?.id ?? '').execute();
      assert.equal(tokens.length, 1);
    });

    it(`AS-49 ${N} concurrent identical refreshes of one refresh token leave exactly one live token family`, async () => {
      const client = await registerClient(h);
      const browser = await signedInBrowser(h);
      const issued = await issueGrantTokens(h.ctx, { userId: browser.userId, orgId: browser.orgId, clientId: client.client_id, scopes: ['mcp'], resource: `${BASE_URL}/mcp` });
      const request = () => h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: issued.refreshToken, client_id: client.client_id }));
      const responses = await Promise.all(Array.from({ length: N }, request));
      const bodies = (await Promise.all(responses.map((r) => r.json()))) as Body[];
      assert.deepEqual([...new Set(responses.map((r) => r.status))], [200], JSON.stringify(bodies.find((b) => b.error)));
      assert.equal(new Set(bodies.map((b) => b.refresh_token)).size, 1, 'every caller got the same new refresh token');
      assert.equal(new Set(bodies.map((b) => b.access_token)).size, 1, 'and the same access token');
      const live = await h.ctx.store.db
        .selectFrom('oauth_refresh_tokens')
        .select('token_hash')
        .where('grant_id', '=', issued.grantId)
        .where('rotated_at', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
      assert.equal(live.length, 1, 'one live refresh token');
      const ats = await h.ctx.store.db.selectFrom('oauth_access_tokens').select('token_hash').where('grant_id', '=', issued.grantId).execute();
      assert.equal(ats.length, 2, 'the original access token and exactly one new one');
      assert.ok((await createTokenVerifier(h.ctx).verify(String(bodies[0]?.access_token))).ok, 'the family is live, not revoked');
      const next = await h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: String(bodies[0]?.refresh_token), client_id: client.client_id }));
      assert.equal(next.status, 200, 'the new refresh token works');
    });
  });
}
