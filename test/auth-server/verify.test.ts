import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTokenVerifier, issueGrantTokens } from '../../src/auth-server/index.ts';
import { findGrant, revokeGrant } from '../../src/store/oauth-grants.ts';
import { dialectsUnderTest } from '../support/databases.ts';
import { BASE_URL, startHarness, type Harness } from './harness.ts';

const user = { userId: 'usr_1', orgId: 'org_1', clientId: 'cli_1', scopes: ['mcp'], resource: `${BASE_URL}/mcp` };

for (const dialect of dialectsUnderTest()) {
  describe(`access-token verification (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(dialect);
    });
    after(async () => h.close());

    it('AS-23 tokens are opaque, typed and carry 256 bits of randomness', async () => {
      const t = await issueGrantTokens(h.ctx, user);
      assert.match(t.accessToken, /^aat_[A-Za-z0-9_-]{43}$/);
      assert.match(t.refreshToken, /^art_[A-Za-z0-9_-]{43}$/);
      assert.equal(t.expiresIn, 3600);
      const stored = await h.ctx.store.db.selectFrom('oauth_access_tokens').select('token_hash').execute();
      assert.ok(stored.every((r) => !r.token_hash.includes(t.accessToken.slice(4, 20))), 'only the keyed hash is stored');
    });

    it('verifies a live token into AuthInfo', async () => {
      const t = await issueGrantTokens(h.ctx, user);
      const check = await createTokenVerifier(h.ctx).verify(t.accessToken);
      assert.ok(check.ok);
      assert.deepEqual({ ...check.auth, expiresAt: undefined, token: undefined }, {
        token: undefined,
        userId: 'usr_1',
        orgId: 'org_1',
        clientId: 'cli_1',
        scopes: ['mcp'],
        resource: `${BASE_URL}/mcp`,
        expiresAt: undefined,
      });
      assert.ok(Math.abs(check.auth.expiresAt - (Date.now() / 1000 + 3600)) < 5);
    });

    it('rejects unknown, malformed and refresh tokens as invalid_token', async () => {
      const v = createTokenVerifier(h.ctx);
      const t = await issueGrantTokens(h.ctx, user);
      for (const bad of ['', 'nope', `aat_${'A'.repeat(43)}`, t.refreshToken]) {
        const check = await v.verify(bad);
        assert.equal(check.ok, false);
        if (!check.ok) assert.equal(check.error, 'invalid_token');
      }
    });

    it('AS-55 rejects a token bound to another resource', async () => {
      const t = await issueGrantTokens(h.ctx, { ...user, resource: 'https://elsewhere.example/mcp' });
      assert.equal((await createTokenVerifier(h.ctx).verify(t.accessToken)).ok, false);
    });

    it('verifications of one token that arrive together share one lookup', async () => {
      const t = await issueGrantTokens(h.ctx, user);
      const v = createTokenVerifier(h.ctx);
      const checks = await Promise.all(Array.from({ length: 8 }, () => v.verify(t.accessToken)));
      assert.ok(checks.every((c) => c.ok));
      const first = checks[0]!;
      for (const c of checks) assert.equal(c, first, 'one answer, not one lookup each');
    });

    it('a token in use is looked up again before its reuse lapses, and stays the same AuthInfo while unchanged', async () => {
      const v = createTokenVerifier(h.ctx);
      const t = await issueGrantTokens(h.ctx, user);
      const first = await v.verify(t.accessToken);
      assert.ok(first.ok);
      // Into the last second of the first lookup's 3 s (a timer never fires early: ~950 ms of margin for a late one).
      await new Promise((r) => setTimeout(r, 2050));
      assert.equal(await v.verify(t.accessToken), first, 'answered from the reused lookup; a background lookup starts');
      await new Promise((r) => setTimeout(r, 1300));
      // Past the first lookup's 3 s: answered by the background lookup, which found the token unchanged.
      assert.equal(await v.verify(t.accessToken), first);
    });

    it('a revoked grant stops verifying once the cache bound has passed', async () => {
      const v = createTokenVerifier(h.ctx);
      const t = await issueGrantTokens(h.ctx, user);
      assert.ok((await v.verify(t.accessToken)).ok);
      assert.ok(await revokeGrant(h.ctx.store.db, t.grantId, 'test', Date.now()));
      assert.ok((await findGrant(h.ctx.store.db, t.grantId))?.revokedAt);
      assert.equal((await createTokenVerifier(h.ctx).verify(t.accessToken)).ok, false, 'a fresh verifier sees it at once');
      await new Promise((r) => setTimeout(r, 3100));
      assert.equal((await v.verify(t.accessToken)).ok, false, 'the cached verifier within 3 s');
    });
  });
}
