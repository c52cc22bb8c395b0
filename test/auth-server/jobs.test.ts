// Expired rows: every read refuses them itself, and only the periodic job deletes them (request
// paths never clean up). Time passing is simulated by moving a row's expiry into the past.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { sql } from 'kysely';
import { housekeeping, startOAuthJobs } from '../../src/auth-server/jobs.ts';
import { createTokenVerifier, issueGrantTokens } from '../../src/auth-server/index.ts';
import { keyedHash } from '../../src/auth-server/secrets.ts';
import { EXPIRED_TOKEN_BATCH, findGrant } from '../../src/store/oauth-grants.ts';
import { claimJobRun, releaseJobRun } from '../../src/store/job-runs.ts';
import { AUDIT_DELETE_BATCH } from '../../src/store/audit-events.ts';
import { newId } from '../../src/store/ids.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import type { AppContext } from '../../src/http/context.ts';
import { createBrowserIdentity } from '../../src/identity/index.ts';
import { saveLoginState } from '../../src/identity/upstream/login-states.ts';
import { dialectsUnderTest } from '../support/databases.ts';
import { waitUntil } from '../support/wait-until.ts';
import { BASE_URL, form, registerClient, signedInBrowser, startHarness, type Harness } from './harness.ts';

for (const dialect of dialectsUnderTest()) {
  describe(`expired rows are never honoured and are removed by the periodic job (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(dialect);
    });
    after(async () => h.close());

    /** Two more instances' stores: their own connections to the harness's database. */
    const twoMoreConnections = (): Store[] =>
      [1, 2].map(() => openStore(h.databaseConfig));
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

    it('the service runs the job soon after it starts, not an hour later, and then on its interval', async () => {
      const expire = (userId: string) => h.ctx.store.db.updateTable('browser_sessions').set({ expires_at: Date.now() - 1 }).where('user_id', '=', userId).execute();
      const goneWithin = async (userId: string, ms: number) => {
        await waitUntil(async () => (await sessionsOf(userId)) === 0, ms);
        return (await sessionsOf(userId)) === 0;
      };
      const [first, second, third] = [await signedInBrowser(h), await signedInBrowser(h), await signedInBrowser(h)];
      await expire(first.userId);
      // An hour's interval: only the first run, soon after start, can remove it.
      let stop = startOAuthJobs(h.ctx, { firstRunMs: 50, intervalMs: 3_600_000 });
      try {
        assert.ok(await goneWithin(first.userId, 15_000), 'the first run came soon after start');
      } finally {
        await stop();
      }
      await expire(second.userId);
      stop = startOAuthJobs(h.ctx, { firstRunMs: 0, intervalMs: 100 });
      try {
        assert.ok(await goneWithin(second.userId, 15_000), 'the first run');
        await expire(third.userId);
        assert.ok(await goneWithin(third.userId, 15_000), 'a later run, on the interval');
      } finally {
        await stop();
      }
    });

    type LogLine = { msg: string; removed?: { sessions: number } };
    /** Three instances on the harness's database (its own and two more connections), each with its own log. */
    const threeInstances = () => {
      const stores = twoMoreConnections();
      const logs: LogLine[][] = [[], [], []];
      const instances: AppContext[] = [h.ctx, ...stores.map((store) => ({ ...h.ctx, store }))].map((ctx, i) => ({
        ...ctx,
        logger: pino({ level: 'debug' }, { write: (line: string) => void logs[i]!.push(JSON.parse(line)) }),
      }));
      const lines = (msg: RegExp) => logs.flat().filter((l) => msg.test(l.msg));
      return { instances, logs, lines, close: () => Promise.all(stores.map((store) => store.close())) };
    };

    it('instances sharing the database run the job once between them, and each run logs what it removed', async () => {
      const { instances, logs, lines, close } = threeInstances();
      const ended = await signedInBrowser(h);
      await h.ctx.store.db.updateTable('browser_sessions').set({ expires_at: Date.now() - 1 }).where('user_id', '=', ended.userId).execute();
      await h.ctx.store.db.deleteFrom('job_runs').execute();
      const stops = instances.map((ctx) => startOAuthJobs(ctx, { firstRunMs: 0, intervalMs: 3_600_000 }));
      try {
        await waitUntil(() => lines(/^oauth housekeeping (done|skipped)/).length === 3, 15_000);
      } finally {
        await Promise.all(stops.map((stop) => stop()));
        await close();
      }
      const done = lines(/^oauth housekeeping done$/);
      assert.equal(done.length, 1, `one instance ran it: ${JSON.stringify(logs)}`);
      assert.equal(lines(/^oauth housekeeping skipped/).length, 2, 'the other two skipped it');
      assert.ok((done[0]?.removed?.sessions ?? 0) >= 1, 'the run says what it removed');
      assert.equal(await sessionsOf(ended.userId), 0);
    });

    it('a run that fails gives its claim back, so the next tick on any instance runs it', async () => {
      const { instances, logs, lines, close } = threeInstances();
      const db = h.ctx.store.db;
      try {
        await db.deleteFrom('job_runs').execute();
        // One of the run's steps fails while its table is away.
        await sql`alter table upstream_login_states rename to upstream_login_states_away`.execute(db);
        try {
          const stop = startOAuthJobs(instances[0]!, { firstRunMs: 0, intervalMs: 3_600_000 });
          await waitUntil(() => lines(/^oauth housekeeping failed$/).length === 1, 15_000);
          await stop();
        } finally {
          await sql`alter table upstream_login_states_away rename to upstream_login_states`.execute(db);
        }
        assert.equal(lines(/^oauth housekeeping failed$/).length, 1, JSON.stringify(logs));
        const stop = startOAuthJobs(instances[1]!, { firstRunMs: 0, intervalMs: 3_600_000 });
        await waitUntil(() => lines(/^oauth housekeeping (done|skipped)/).length === 1, 15_000);
        await stop();
        assert.equal(lines(/^oauth housekeeping done$/).length, 1, `another instance ran it at once: ${JSON.stringify(logs)}`);
      } finally {
        await close();
      }
    });

    it('a claim succeeds for one of many callers at once, and again only once the gap has passed', async () => {
      const stores = twoMoreConnections();
      try {
        const dbs = [h.ctx.store.db, ...stores.map((s) => s.db)];
        const at = Date.now();
        const gap = 60_000;
        const first = await Promise.all(Array.from({ length: 12 }, (_, i) => claimJobRun(dbs[i % 3]!, 'test-job', at, gap)));
        assert.equal(first.filter(Boolean).length, 1, 'one of twelve claims at once');
        assert.equal(await claimJobRun(dbs[1]!, 'test-job', at + gap - 1, gap), false, 'not before the gap has passed');
        const later = await Promise.all(Array.from({ length: 12 }, (_, i) => claimJobRun(dbs[i % 3]!, 'test-job', at + gap, gap)));
        assert.equal(later.filter(Boolean).length, 1, 'one again once it has');
        assert.equal(await claimJobRun(dbs[2]!, 'another-test-job', at + 1, gap), true, 'each job is claimed on its own');
        await releaseJobRun(dbs[0]!, 'test-job', at);
        assert.equal(await claimJobRun(dbs[0]!, 'test-job', at + gap + 1, gap), false, "giving back an older claim leaves the later one in place");
        await releaseJobRun(dbs[0]!, 'test-job', at + gap);
        assert.equal(await claimJobRun(dbs[0]!, 'test-job', at + gap + 1, gap), true, 'giving back the last claim lets the next caller in');
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    it('expired access and refresh tokens are refused, and the job removes them (a backlog in batches) but no live or rotated-and-live one', async () => {
      const client = await registerClient(h);
      const db = h.ctx.store.db;
      const hash = (token: string) => keyedHash(h.ctx.config.secrets.hash, token);
      const issue = () => issueGrantTokens(h.ctx, { userId: 'usr_j', orgId: 'org_j', clientId: client.client_id, scopes: ['mcp'], resource: `${BASE_URL}/mcp` });
      const refresh = async (refreshToken: string) => {
        const res = await h.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.client_id }));
        return { body: (await res.json()) as { error?: string; refresh_token?: string } };
      };
      const expired = await issue();
      const live = await issue();
      // live's first refresh token is rotated (a minute ago: past the grace window) and not expired.
      const rotated = live.refreshToken;
      const successor = (await refresh(rotated)).body.refresh_token!;
      await db.updateTable('oauth_refresh_tokens').set({ rotated_at: Date.now() - 60_000 }).where('token_hash', '=', hash(rotated)).execute();

      const past = Date.now() - 1;
      await db.updateTable('oauth_access_tokens').set({ expires_at: past }).where('token_hash', '=', hash(expired.accessToken)).execute();
      await db.updateTable('oauth_refresh_tokens').set({ expires_at: past }).where('token_hash', '=', hash(expired.refreshToken)).execute();
      assert.equal((await createTokenVerifier(h.ctx).verify(expired.accessToken)).ok, false, 'an expired access token is refused on read');
      assert.equal((await refresh(expired.refreshToken)).body.error, 'invalid_grant', 'an expired refresh token too');
      // A backlog: more expired tokens than one statement deletes.
      const backlog = 2 * EXPIRED_TOKEN_BATCH + 17;
      const grantId = (await db.selectFrom('oauth_access_tokens').select('grant_id').where('token_hash', '=', hash(live.accessToken)).executeTakeFirstOrThrow()).grant_id;
      for (let from = 0; from < backlog; from += 500) {
        const rows = Array.from({ length: Math.min(500, backlog - from) }, (_, i) => ({ token_hash: `backlog-${from + i}`, org_id: 'org_j', grant_id: grantId, created_at: past - 7_200_000, expires_at: past - i }));
        await db.insertInto('oauth_access_tokens').values(rows.map((r) => ({ ...r, scope: 'mcp', revoked_at: null }))).execute();
        await db.insertInto('oauth_refresh_tokens').values(rows.map((r) => ({ ...r, rotated_at: null, request_fingerprint: null, grace_response_enc: null, revoked_at: null }))).execute();
      }
      const expiredCount = async (table: 'oauth_access_tokens' | 'oauth_refresh_tokens') =>
        Number((await db.selectFrom(table).select((e) => e.fn.countAll().as('n')).where('expires_at', '<', Date.now()).executeTakeFirstOrThrow()).n);
      assert.equal(await expiredCount('oauth_access_tokens'), backlog + 1);
      assert.equal(await expiredCount('oauth_refresh_tokens'), backlog + 1);

      await housekeeping(h.ctx);
      assert.equal(await expiredCount('oauth_access_tokens'), 0, 'no expired access token is left');
      assert.equal(await expiredCount('oauth_refresh_tokens'), 0, 'no expired refresh token is left');
      const kept = async (table: 'oauth_access_tokens' | 'oauth_refresh_tokens', token: string) => (await db.selectFrom(table).select('token_hash').where('token_hash', '=', hash(token)).execute()).length;
      assert.equal(await kept('oauth_access_tokens', live.accessToken), 1);
      assert.equal(await kept('oauth_refresh_tokens', rotated), 1, 'a rotated refresh token is kept while it would have lived');
      assert.equal(await kept('oauth_refresh_tokens', successor), 1);
      assert.equal((await createTokenVerifier(h.ctx).verify(live.accessToken)).ok, true);

      // AS-48 still holds for the rotated one: presenting it again revokes the grant.
      assert.equal((await refresh(rotated)).body.error, 'invalid_grant');
      assert.notEqual((await findGrant(db, grantId))?.revokedAt ?? null, null, 'its grant is revoked');
      assert.equal((await refresh(successor)).body.error, 'invalid_grant');
    });

    it('audit events older than AUDIT_RETENTION_DAYS are deleted (a backlog in steps), newer ones kept; 0 keeps them all', async () => {
      const db = h.ctx.store.db;
      const day = 24 * 3600 * 1000;
      const at = Date.now();
      const cutoff = at - h.ctx.config.oauth.auditRetentionDays * day;
      assert.equal(h.ctx.config.oauth.auditRetentionDays, 365, 'the documented default');
      const event = (createdAt: number, label: string) => ({ id: newId('aud', createdAt), org_id: 'org_audit', user_id: null, client_id: label, kind: 'tokens_refreshed', detail: '{}', ip: null, user_agent: null, created_at: createdAt });
      const backlog = 2 * AUDIT_DELETE_BATCH + 3;
      await db.insertInto('audit_events').values(Array.from({ length: backlog }, (_, i) => event(cutoff - 30 * day - i * 60_000, 'old'))).execute();
      await db.insertInto('audit_events').values([event(cutoff - 1, 'just-past'), event(cutoff, 'at-cutoff'), event(cutoff + 60_000, 'within'), event(at, 'recent')]).execute();
      const labels = async () => (await db.selectFrom('audit_events').select('client_id').where('org_id', '=', 'org_audit').execute()).map((r) => r.client_id);

      const retaining = (auditRetentionDays: number) => ({ ...h.ctx, config: { ...h.ctx.config, oauth: { ...h.ctx.config.oauth, auditRetentionDays } } });
      for (const days of [0, 36_500]) {
        assert.equal((await housekeeping(retaining(days), at)).auditEvents, 0);
        assert.equal((await labels()).length, backlog + 4, `AUDIT_RETENTION_DAYS=${days} keeps every event`);
      }

      const removed = await housekeeping(h.ctx, at);
      assert.equal(removed.auditEvents, backlog + 1);
      assert.deepEqual((await labels()).sort(), ['at-cutoff', 'recent', 'within']);
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
