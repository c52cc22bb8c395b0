// Dependency outages, on a PostgreSQL cluster and a Redis server of the test's own (the machine's
// shared ones are never stopped). PostgreSQL stopped under load: /readyz 503, every request
// answered within 5 s in its protocol's format (503 + Retry-After, never a 500 or a hang), and full
// recovery without a restart once it is back. Redis stopped: rate limits fall back to per-instance
// memory with a logged warning (still enforced: 429 past the limit), and the service keeps answering.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/load.ts';
import { startService, type RunningService } from '../../src/server.ts';
import { issueGrantTokens } from '../../src/auth-server/index.ts';
import { createOrganization } from '../../src/store/organizations.ts';
import { createUser } from '../../src/store/users.ts';
import { onFreePort } from '../support/service.ts';
import { mcpRequest, refreshTokens, registerClient } from './support/oauth-flow.ts';
import { startOwnPostgres, startOwnRedis, type OwnPostgres, type OwnRedis } from './support/own-dependencies.ts';

const DEADLINE = 5000;
/** MCP_USER_REQUESTS_PER_MINUTE, small enough for the Redis outage test to reach it. */
const USER_LIMIT = 6;

async function timed(url: string, init: RequestInit = {}): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(DEADLINE) });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

describe('dependency outages (own PostgreSQL and Redis)', () => {
  let pg: OwnPostgres;
  let redis: OwnRedis;
  let service: RunningService;
  let base: string;
  const lines: string[] = [];
  let token = '';
  let refresh = '';
  let orgId = '';

  before(async () => {
    [pg, redis] = await Promise.all([startOwnPostgres(), startOwnRedis()]);
    const dataDir = mkdtempSync(join(tmpdir(), 'aas-outage-'));
    const secrets = { HASH_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    const sink = new Writable({ write(chunk, _e, done) { lines.push(String(chunk)); done(); } });
    service = await onFreePort(async (port) => {
      base = `http://localhost:${port}`;
      const config = loadConfig({
        APP_ENV: 'development', PORT: String(port), BASE_URL: base, DATABASE_URL: pg.url, REDIS_URL: redis.url,
        DATA_DIR: dataDir, ...secrets, MCP_USER_REQUESTS_PER_MINUTE: String(USER_LIMIT),
      });
      return startService(config, pino({ level: 'info' }, sink));
    });
    const db = service.ctx.store.db;
    const org = await createOrganization(db, { name: 'Outage Org', domains: ['outage.example'], license: { plan: 'paid', trialEndsAt: null, seats: 10 } });
    orgId = org.id;
    const user = await createUser(db, { orgId: org.id, email: 'ops@outage.example', name: 'Ops', role: 'member' });
    const issued = await issueGrantTokens(service.ctx, { userId: user.id, orgId: org.id, clientId: 'outage-client', scopes: ['mcp'], resource: `${base}/mcp` });
    token = issued.accessToken;
    refresh = issued.refreshToken;
  });
  after(async () => {
    await service?.stop('test finished');
    pg?.destroy();
    await redis?.stop();
  });

  async function whileDown(client: { client_id: string; redirect_uris: string[] }) {
    const ready = await timed(`${base}/readyz`);
    assert.equal(ready.status, 503);
    assert.equal((JSON.parse(ready.body) as { database: string }).database, 'down');

    // A little load while it is down: every answer comes within 5 s and none is a 500.
    const unknownToken = `aat_${randomBytes(32).toString('base64url')}`;
    const requests: [string, () => Promise<{ status: number; body: string; headers: Headers }>][] = [
      ['register', () => timed(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'x', redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }) })],
      ['token', () => timed(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh, client_id: client.client_id }) })],
      ['revoke', () => timed(`${base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: refresh, client_id: client.client_id }) })],
      ['mcp', () => mcpRequest(base, unknownToken, 'tools/list').then(async (r) => ({ status: r.status, body: await r.text(), headers: r.headers }))],
      ['authorize', () => timed(`${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: client.redirect_uris[0]!, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })}`, { redirect: 'manual' })],
    ];
    const answers = await Promise.all(Array.from({ length: 4 }, () => requests.map(async ([name, send]) => ({ name, ...(await send()) }))).flat());
    for (const a of answers) {
      assert.equal(a.status, 503, `${a.name} answered ${a.status} while the database was down: ${a.body.slice(0, 200)}`);
      assert.ok(Number(a.headers.get('retry-after')) > 0, `${a.name}: no Retry-After`);
      if (a.name === 'authorize') assert.match(a.headers.get('content-type') ?? '', /text\/html/);
      else assert.equal((JSON.parse(a.body) as { error: string }).error, 'temporarily_unavailable', `${a.name}: ${a.body}`);
    }
  }

  it('answers 503 in each protocol\'s format within 5 s while PostgreSQL is down, and recovers without a restart', async () => {
    assert.equal((await timed(`${base}/readyz`)).status, 200);
    const client = await registerClient(base);
    assert.equal((await mcpRequest(base, token, 'ping')).status, 200);

    pg.stop();
    try {
      await whileDown(client);
    } finally {
      pg.start();
    }
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await timed(`${base}/readyz`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(status, 200, 'not ready again after PostgreSQL came back');
    assert.equal((await mcpRequest(base, token, 'tools/list')).status, 200);
    const refreshed = await refreshTokens(base, client, refresh);
    // The refresh token was issued to 'outage-client', so this client is refused — by the database, which answers again.
    assert.equal(refreshed.status, 400);
    assert.equal(((await refreshed.json()) as { error: string }).error, 'invalid_grant');
    assert.equal((await registerClient(base)).redirect_uris.length, 1);
  });

  /** /readyz's answer: the service's status and its rate-limit store's. */
  const readiness = async () => JSON.parse((await timed(`${base}/readyz`)).body) as { status: string; limits: { status: string } };

  it('falls back to per-instance rate limits, still enforced, with a logged warning while Redis is down', async () => {
    await redis.stop();
    // Once the service has seen the outage, every request below is counted by the memory fallback.
    let ready = await readiness();
    for (let i = 0; i < 50 && ready.limits.status !== 'down'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ready = await readiness();
    }
    assert.equal(ready.limits.status, 'down');
    assert.equal(ready.status, 'ok');

    // A user of its own, so no earlier request counts: the per-user MCP limit still stops it at USER_LIMIT.
    const user = await createUser(service.ctx.store.db, { orgId, email: 'limited@outage.example', name: 'Limited', role: 'member' });
    const limited = (await issueGrantTokens(service.ctx, { userId: user.id, orgId, clientId: 'outage-client', scopes: ['mcp'], resource: `${base}/mcp` })).accessToken;
    const statuses: number[] = [];
    for (let i = 0; i < USER_LIMIT + 2; i++) {
      const res = await mcpRequest(base, limited, 'ping', {}, 'legacy', i);
      statuses.push(res.status);
      if (res.status === 429) {
        assert.ok(Number(res.headers.get('retry-after')) > 0, 'a 429 without Retry-After');
        assert.equal(((await res.json()) as { error: string }).error, 'rate_limited');
      } else {
        await res.body?.cancel();
      }
    }
    assert.deepEqual(statuses, [...Array<number>(USER_LIMIT).fill(200), 429, 429], 'MCP calls while Redis was down');
    assert.equal((await registerClient(base)).redirect_uris.length, 1);
    // The client notices the outage on its next reconnect attempt: the warning may follow the calls.
    const warned = () => lines.some((l) => /redis unreachable: rate limits fall back to per-instance memory/.test(l) && /"level":40/.test(l));
    for (let i = 0; i < 50 && !warned(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(warned(), 'no warning logged');

    await redis.start();
    let limits = 'down';
    for (let i = 0; i < 50 && limits !== 'ok'; i++) {
      limits = (await readiness()).limits.status;
      if (limits !== 'ok') await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(limits, 'ok', 'shared limits did not resume when Redis came back');
  });
});
