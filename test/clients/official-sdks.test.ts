// The official MCP client SDKs against the real service, the whole path each: a 401 from /mcp →
// discovery (protected-resource and AS metadata) → dynamic registration → authorize → demo sign-in
// and consent (headless, over HTTP) → token → tools/list → tools/call → refresh → revoke → 401.
// v2 (`@modelcontextprotocol/client`) in both eras, v1 (`@modelcontextprotocol/sdk`) in the 2025 era.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as v2 from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth as v1Auth, UnauthorizedError as V1Unauthorized } from '@modelcontextprotocol/sdk/client/auth.js';
import { createTokenVerifier } from '../../src/auth-server/index.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { approveHeadless, mcpStatus, revoke } from './support/headless.ts';
import { MemoryOAuthProvider } from '../support/memory-oauth-provider.ts';

const sdkProvider = (name: string) =>
  new MemoryOAuthProvider('http://127.0.0.1:8976/callback', { client_name: name, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });

describe('official MCP client SDKs: discovery → registration → sign-in → token → tools → refresh → revoke', () => {
  let service: TestService;
  let mcpUrl: string;
  const domain = `sdk-${randomBytes(3).toString('hex')}.example`;
  before(async () => {
    service = await startTestService();
    mcpUrl = `${service.baseUrl}/mcp`;
  });
  after(async () => service?.close());

  /** Checks the authorization request the SDK built from discovery, then approves it. */
  async function approve(provider: MemoryOAuthProvider, email: string): Promise<URL> {
    const url = provider.authorizationUrl;
    assert.ok(url, 'the SDK asked for authorization after the 401');
    assert.equal(`${url.origin}${url.pathname}`, `${service.baseUrl}/oauth/authorize`, 'found through protected-resource and AS metadata');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('resource'), mcpUrl, 'RFC 8707 resource from the protected-resource metadata');
    assert.equal(url.searchParams.get('client_id'), provider.info?.client_id, 'dynamically registered');
    const { callback } = await approveHeadless(url, email);
    assert.equal(callback.searchParams.get('iss'), service.baseUrl);
    assert.equal(callback.searchParams.get('state'), url.searchParams.get('state'));
    return callback;
  }

  async function refreshThenRevoke(provider: MemoryOAuthProvider, refresh: () => Promise<unknown>) {
    const first = provider.saved;
    assert.ok(first?.access_token && first.refresh_token);
    assert.equal(await refresh(), 'AUTHORIZED');
    const second = provider.saved;
    assert.ok(second?.access_token && second.refresh_token);
    assert.notEqual(second.refresh_token, first.refresh_token, 'refresh rotation');
    // Checked with a fresh verifier, not through /mcp: the endpoint's verifier may cache a verified token
    // for CACHE_MS, and the 401 below must come from the revocation, not from a cache miss.
    assert.ok((await createTokenVerifier(service.ctx).verify(second.access_token)).ok, 'the refreshed token is live');
    assert.equal(await revoke(service.baseUrl, provider.info?.client_id ?? '', second.refresh_token), 200);
    assert.equal(await mcpStatus(mcpUrl, second.access_token), 401, 'revoking the grant ends its access tokens');
  }

  for (const era of ['legacy', 'modern'] as const) {
    test(`v2 client (@modelcontextprotocol/client), ${era === 'modern' ? '2026-07-28' : '2025'} era`, async () => {
      const provider = sdkProvider(`v2 ${era}`);
      const options = era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {};
      const first = new v2.StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
      await assert.rejects(new v2.Client({ name: 'matrix', version: '1.0.0' }, options).connect(first), v2.UnauthorizedError);
      const callback = await approve(provider, `v2-${era}@${domain}`);
      await first.finishAuth(callback.searchParams); // validates iss (RFC 9207) before redeeming

      const client = new v2.Client({ name: 'matrix', version: '1.0.0' }, options);
      await client.connect(new v2.StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
      assert.equal(client.getNegotiatedProtocolVersion(), era === 'modern' ? '2026-07-28' : '2025-11-25');
      const tools = await client.listTools();
      assert.equal(tools.tools.length, 12);
      const result = await client.callTool({ name: 'get_teams', arguments: {} });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      assert.match(JSON.stringify(result.structuredContent), new RegExp(`v2-${era}@${domain}`));
      await client.close();

      await refreshThenRevoke(provider, () => v2.auth(provider, { serverUrl: mcpUrl }));
    });
  }

  test('v1 client (@modelcontextprotocol/sdk), 2025 era', async () => {
    const provider = sdkProvider('v1');
    const first = new V1Transport(new URL(mcpUrl), { authProvider: provider });
    await assert.rejects(new V1Client({ name: 'matrix-v1', version: '1.0.0' }).connect(first), V1Unauthorized);
    const callback = await approve(provider, `v1@${domain}`);
    await first.finishAuth(callback.searchParams.get('code') ?? '');

    const client = new V1Client({ name: 'matrix-v1', version: '1.0.0' });
    await client.connect(new V1Transport(new URL(mcpUrl), { authProvider: provider }));
    assert.equal(client.getServerVersion()?.name, 'agent-access');
    const tools = await client.listTools();
    assert.equal(tools.tools.length, 12);
    const result = await client.callTool({ name: 'get_teams', arguments: {} });
    assert.notEqual(result.isError, true);
    assert.match(JSON.stringify(result.structuredContent), new RegExp(`v1@${domain}`));
    await client.close();

    await refreshThenRevoke(provider, () => v1Auth(provider, { serverUrl: mcpUrl }));
  });
});
