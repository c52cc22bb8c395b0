// The conformance test mode: the fixture endpoint exists only when MCP_CONFORMANCE_MODE is on,
// answers loopback peers without a token, and never exposes organization data or tools.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestService, type TestService } from '../support/service.ts';
import { startHarness } from '../auth-server/harness.ts';

describe('MCP conformance mode', () => {
  let on: TestService;
  before(async () => {
    on = await startTestService({ env: { MCP_CONFORMANCE_MODE: 'true' } });
  });
  after(async () => on?.close());

  it('serves the suite fixtures to a loopback client without a token, in both eras', async () => {
    for (const options of [{}, { versionNegotiation: { mode: { pin: '2026-07-28' as const } } }]) {
      const client = new Client({ name: 'conformance-check', version: '1.0.0' }, options);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${on.baseUrl}/conformance/mcp`)));
      assert.equal(client.getNegotiatedProtocolVersion(), 'versionNegotiation' in options ? '2026-07-28' : '2025-11-25');
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('test_simple_text'));
      assert.ok(!names.includes('get_deals'), 'no organization tools in the fixture server');
      const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
      assert.deepEqual(result.content, [{ type: 'text', text: 'This is a simple text response for testing.' }]);
      assert.equal((await client.readResource({ uri: 'test://static-text' })).contents.length, 1);
      await client.close();
    }
  });

  it('keeps /mcp behind the bearer check in conformance mode', async () => {
    const res = await fetch(`${on.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    assert.equal(res.status, 401);
  });

  it('refuses a request that does not come from a loopback socket', async () => {
    const h = await startHarness('sqlite', { MCP_CONFORMANCE_MODE: 'true' });
    try {
      // app.request() has no socket peer: treated as not loopback, even with a forged X-Forwarded-For.
      const res = await h.request('/conformance/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '127.0.0.1' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
      assert.equal(res.status, 403);
    } finally {
      await h.close();
    }
  });

  it('is not mounted unless MCP_CONFORMANCE_MODE is on', async () => {
    const off = await startTestService();
    try {
      const res = await fetch(`${off.baseUrl}/conformance/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
      assert.equal(res.status, 404);
    } finally {
      await off.close();
    }
  });
});
