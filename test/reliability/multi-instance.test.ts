// Several instances (architecture.md "Scale-out"): two instances on one PostgreSQL and one Redis
// behind a round-robin proxy. A whole OAuth flow whose steps alternate instances; a revocation on
// one instance effective on the other within the verifier's documented cache bound; rate limits
// shared through Redis; concurrent code exchanges and refreshes split across instances leave
// exactly one winner (AS-24, AS-49, P18).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '../support/databases.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { CACHE_MS } from '../../src/auth-server/verify.ts';
import { startCluster, type Cluster } from './support/cluster.ts';
import { authorizeCode, browserFor, exchangeCode, mcpRequest, refreshTokens, registerClient, revokeToken, type Tokens } from './support/oauth-flow.ts';
import { pkcePair } from '../support/pkce.ts';
import { rpcMessage } from '../support/mcp-message.ts';

// A Redis database of its own on the shared server, so counters never meet other suites' keys.
const REDIS_URL = `${process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379'}/11`;

const pin = (i: number) => ({ 'x-test-instance': String(i) });

// Scale-out is a PostgreSQL deployment; with SKIP_POSTGRES=1 (local only) there is nothing to share.
describe('two instances behind a round-robin proxy (PostgreSQL + Redis)', { skip: !dialectsUnderTest().includes('postgres') && 'SKIP_POSTGRES=1' }, () => {
  let database: TestDatabase;
  let cluster: Cluster;
  let base: string;
  before(async () => {
    database = await createTestDatabase('postgres');
    // A fresh client address per run: the per-IP counters in Redis are this run's alone.
    const clientAddress = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    cluster = await startCluster({ databaseUrl: database.url, redisUrl: REDIS_URL, clientAddress });
    base = cluster.proxy.url;
    await seedDemo(cluster.instances[0]!.ctx.store, { meetings: 20, documents: 5, appUrl: cluster.instances[0]!.ctx.config.appUrl });
  });
  after(async () => {
    await cluster?.close();
    await database?.drop();
  });

  it('completes a whole OAuth flow whose steps alternate instances', async () => {
    const before = [...cluster.proxy.hits];
    const client = await registerClient(base);
    const jar = await browserFor(base, 'mia.member@northwind.example');
    const { verifier, challenge } = pkcePair();
    const { code, location } = await authorizeCode(base, jar, client, challenge);
    assert.equal(location.searchParams.get('iss'), base);
    const exchanged = await exchangeCode(base, client, code, verifier);
    assert.equal(exchanged.status, 200, await exchanged.clone().text());
    const tokens = (await exchanged.json()) as Tokens;
    for (let i = 0; i < 2; i++) {
      const res = await mcpRequest(base, tokens.access_token, 'tools/call', { name: 'get_teams', arguments: {} });
      assert.equal(res.status, 200);
      assert.equal(((await rpcMessage(res)) as { result: { structuredContent: { me: { email: string } } } }).result.structuredContent.me.email, 'mia.member@northwind.example');
    }
    const refreshed = await refreshTokens(base, client, tokens.refresh_token);
    assert.equal(refreshed.status, 200);
    const next = (await refreshed.json()) as Tokens;
    assert.equal((await mcpRequest(base, next.access_token, 'ping')).status, 200);
    assert.equal((await revokeToken(base, client, next.refresh_token)).status, 200);
    // Both instances served the flow.
    const served = cluster.proxy.hits.map((n, i) => n - (before[i] ?? 0));
    assert.ok(served.every((n) => n >= 3), `hits per instance: ${served.join(', ')}`);
  });

  it(`makes a revocation on one instance effective on the other within the verifier cache bound (${CACHE_MS} ms)`, async () => {
    const { client, tokens } = await flowFor('max.manager@northwind.example');
    // Instance 1 has verified (and cached) the token.
    assert.equal((await mcpRequest(cluster.instances[1]!.direct, tokens.access_token, 'ping')).status, 200);
    const revokedAt = Date.now();
    assert.equal((await fetch(`${base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...pin(0) }, body: new URLSearchParams({ token: tokens.refresh_token, client_id: client.client_id }) })).status, 200);
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < CACHE_MS + 1500) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await mcpRequest(cluster.instances[1]!.direct, tokens.access_token, 'ping')).status;
    }
    assert.equal(status, 401, `the revoked token still worked on the other instance ${Date.now() - revokedAt} ms after revocation`);
  });

  it('shares rate limits between instances through Redis (the MCP per-user limit)', async () => {
    const limit = cluster.instances[0]!.ctx.config.mcp.userRequestsPerMinute;
    const { tokens } = await flowFor(`rate-${randomBytes(3).toString('hex')}@northwind.example`);
    const statuses: number[] = [];
    for (let i = 0; i < limit + 5; i++) {
      const res = await mcpRequest(base, tokens.access_token, 'ping', {}, 'legacy', i);
      statuses.push(res.status);
      await res.body?.cancel();
    }
    // Alternating instances, a per-instance limit would allow twice the limit: the shared one stops at it.
    assert.equal(statuses.filter((s) => s === 200).length, limit, `statuses: ${statuses.join(',')}`);
    assert.ok(statuses.slice(limit).every((s) => s === 429));
  });

  it('AS-24 concurrent exchanges of one code on both instances yield exactly one token', async () => {
    const client = await registerClient(base);
    const jar = await browserFor(base, 'vic.viewer@northwind.example');
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeCode(base, jar, client, challenge);
    const fields = { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.client_id, redirect_uri: client.redirect_uris[0]! };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...pin(i) }, body: new URLSearchParams(fields) })),
    );
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses ${statuses.join(',')}`);
    for (const a of answers.filter((x) => x.status !== 200)) assert.equal(((await a.json()) as { error: string }).error, 'invalid_grant');
  });

  it('AS-49 concurrent refreshes of one token on both instances rotate it once', async () => {
    const { client, tokens } = await flowFor('ada.admin@northwind.example');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...pin(i) }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id }) }),
      ),
    );
    const ok = await Promise.all(answers.filter((a) => a.status === 200).map((a) => a.json() as Promise<Tokens>));
    const losers = answers.filter((a) => a.status !== 200);
    assert.ok(ok.length >= 1, 'no refresh succeeded');
    // One winner: every 200 is the same rotation (grace-window replays are identical), the rest invalid_grant.
    assert.equal(new Set(ok.map((t) => t.refresh_token)).size, 1, 'more than one rotation of one refresh token');
    for (const l of losers) assert.equal(((await l.json()) as { error: string }).error, 'invalid_grant');
    // The family is alive: the new refresh token rotates, on either instance.
    const again = await refreshTokens(base, client, ok[0]!.refresh_token);
    assert.equal(again.status, 200, await again.clone().text());
  });

  async function flowFor(email: string) {
    const client = await registerClient(base);
    const jar = await browserFor(base, email);
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeCode(base, jar, client, challenge);
    const res = await exchangeCode(base, client, code, verifier);
    assert.equal(res.status, 200, await res.clone().text());
    return { client, tokens: (await res.json()) as Tokens };
  }
});
