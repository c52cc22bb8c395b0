// Invalid access tokens at /mcp are limited per address: after MCP_INVALID_TOKENS_PER_MINUTE of
// them the address gets 429 with Retry-After, unverified, while other addresses are served. A
// missing token (the discovery request every client starts with) is not counted.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { issueGrantTokens } from '../../src/auth-server/index.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { findUserByEmail } from '../../src/store/users.ts';
import { rpcMessage } from '../support/mcp-message.ts';

const LIMIT = 3;

describe('invalid access tokens at /mcp, per address', () => {
  let service: TestService;
  let valid: string;
  before(async () => {
    service = await startTestService({ env: { MCP_INVALID_TOKENS_PER_MINUTE: String(LIMIT), TRUSTED_PROXIES: '127.0.0.1/32, ::1' } });
    await seedDemo(service.ctx.store, { meetings: 10, documents: 0, appUrl: service.ctx.config.appUrl });
    const org = await findOrganizationByDomain(service.ctx.store.db, 'northwind.example');
    const user = await findUserByEmail(service.ctx.store.db, org!.id, 'ada.admin@northwind.example');
    valid = (await issueGrantTokens(service.ctx, { userId: user!.id, orgId: org!.id, clientId: 'test-client', scopes: ['mcp'], resource: `${service.baseUrl}/mcp` })).accessToken;
  });
  after(() => service?.close());

  const call = (address: string, token?: string) =>
    fetch(`${service.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-11-25',
        'X-Forwarded-For': address,
        ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  it('does not count requests without a token', async () => {
    for (let i = 0; i < LIMIT + 2; i++) assert.equal((await call('203.0.113.7')).status, 401);
    assert.equal((await call('203.0.113.7', valid)).status, 200);
  });

  it(`answers 429 after ${LIMIT} invalid tokens, to that address only, valid token or not`, async () => {
    for (let i = 0; i < LIMIT; i++) {
      const res = await call('198.51.100.9', `aat_${'x'.repeat(43)}${i}`);
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as { error: string }).error, 'invalid_token');
    }
    const over = await call('198.51.100.9', `aat_${'y'.repeat(43)}`);
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
    assert.equal(((await over.json()) as { error: string }).error, 'rate_limited');
    // The address is refused before its token is looked at, until the window frees it.
    assert.equal((await call('198.51.100.9', valid)).status, 429);
    // Another address is served as usual.
    const other = await call('198.51.100.10', valid);
    assert.equal(other.status, 200);
    assert.ok(Array.isArray(((await rpcMessage(other)).result as { tools: unknown[] }).tools));
  });
});
