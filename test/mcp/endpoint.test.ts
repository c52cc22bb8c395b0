// POST /mcp over real HTTP: the official client SDK (v2) lists and calls all 12 tools in both
// protocol eras with a token obtained through the real OAuth flow, and raw requests (tokens from the
// real issuing code) check the HTTP edges.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { dialectsUnderTest } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { issueGrantTokens } from '../../src/auth-server/index.ts';
import { findOrganizationByDomain, setLicense } from '../../src/store/organizations.ts';
import { findUserByEmail, setUserStatus } from '../../src/store/users.ts';
import { tools } from '../../src/mcp/tools/index.ts';
import { VERIFIED_REUSE_MS } from '../../src/access/auth-info.ts';
import { tokenThroughOAuth } from '../support/oauth-flow.ts';
import { rpcMessage } from '../support/mcp-message.ts';

type Token = (email: string, scopes?: string[], resource?: string) => Promise<string>;

async function setup(dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<{ service: TestService; token: Token }> {
  const service = await startTestService({ dialect, env });
  await seedDemo(service.ctx.store, { meetings: 60, documents: 20, appUrl: service.ctx.config.appUrl });
  const token: Token = async (email, scopes = ['mcp'], resource = `${service.baseUrl}/mcp`) => {
    const org = await findOrganizationByDomain(service.ctx.store.db, email.split('@')[1]!);
    const user = await findUserByEmail(service.ctx.store.db, org!.id, email);
    const issued = await issueGrantTokens(service.ctx, { userId: user!.id, orgId: org!.id, clientId: 'test-client', scopes, resource });
    return issued.accessToken;
  };
  return { service, token };
}

async function connect(service: TestService, token: string, era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client({ name: 'endpoint-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return client;
}

const SAMPLE_ARGS: Record<string, Record<string, unknown>> = {
  list_meetings: { range: 'last_30_days', limit: 3 },
  get_meeting: {},
  get_meeting_transcript: { max_chars: 2000 },
  ask_documents: { question: 'Who approves discounts?' },
  list_agents: {},
  agent_results: {},
  get_qualification_results: {},
  get_deals: { limit: 3 },
  get_deal: {},
  get_teams: {},
  list_reports: { limit: 3 },
  read_report: {},
};

for (const dialect of dialectsUnderTest()) {
  describe(`POST /mcp with the official client (${dialect})`, () => {
    let service: TestService;
    let token: Token;
    before(async () => {
      ({ service, token } = await setup(dialect));
    });
    after(() => service.close());

    for (const era of ['legacy', 'modern'] as const) {
      it(`lists and calls all 12 tools in the ${era} era`, async () => {
        // The token comes through the real OAuth flow (registration, PKCE, demo sign-in, consent).
        const { access_token } = await tokenThroughOAuth(service.baseUrl, 'mia.member@northwind.example');
        const client = await connect(service, access_token, era);
        try {
          if (era === 'modern') assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
          assert.match(client.getInstructions() ?? '', /\.well-known\/mcp\.json/);
          const listed = await client.listTools();
          assert.deepEqual(listed.tools.map((t) => t.name).sort(), tools.map((t) => t.name).sort());
          for (const t of listed.tools) {
            assert.equal(t.annotations?.readOnlyHint, true);
            assert.ok(t.outputSchema);
          }
          const call = async (name: string, args: Record<string, unknown>) => {
            const r = await client.callTool({ name, arguments: args });
            assert.notEqual(r.isError, true, `${name}: ${JSON.stringify(r.content).slice(0, 300)}`);
            assert.ok(r.structuredContent, `${name} has structuredContent`);
            return r.structuredContent as Record<string, any>;
          };
          const meetings = await call('list_meetings', { ...SAMPLE_ARGS.list_meetings, has_transcript: true, owner: 'me' });
          const meetingId = meetings.meetings[0].meeting_id as string;
          const agents = await call('list_agents', {});
          const scorecard = agents.agents.find((a: { name: string }) => a.name === 'Call Scorecard').template_id as string;
          const deals = await call('get_deals', SAMPLE_ARGS.get_deals!);
          const dealId = deals.deals[0].deal_id as string;
          const reports = await call('list_reports', SAMPLE_ARGS.list_reports!);
          await call('get_meeting', { meeting_id: meetingId });
          await call('get_meeting_transcript', { meeting_id: meetingId, max_chars: 2000 });
          await call('ask_documents', SAMPLE_ARGS.ask_documents!);
          await call('agent_results', { template_id: scorecard, meeting_id: meetingId });
          await call('get_qualification_results', { deal_id: dealId });
          await call('get_deal', { deal_id: dealId });
          await call('get_teams', {});
          await call('read_report', { report_id: reports.reports[0].report_id });
          const bad = await client.callTool({ name: 'get_meeting', arguments: { meeting_id: 'mtg_nope' } });
          assert.equal(bad.isError, true);
          assert.equal(bad.structuredContent, undefined);
        } finally {
          await client.close();
        }
      });
    }
  });
}

describe('POST /mcp at the HTTP edge', () => {
  let service: TestService;
  let token: Token;
  let url: string;
  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  before(async () => {
    ({ service, token } = await setup('sqlite'));
    url = `${service.baseUrl}/mcp`;
  });
  after(() => service.close());

  it('should return 401 with the resource metadata challenge without a token', async () => {
    const res = await rpc(init);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), `Bearer resource_metadata="${service.baseUrl}/.well-known/oauth-protected-resource/mcp", scope="mcp"`);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/);
  });

  it('should return 401 invalid_token for an unknown token, a token in the query, and another audience', async () => {
    const unknown = await rpc(init, { Authorization: 'Bearer aat_not_a_real_token' });
    assert.equal(unknown.status, 401);
    assert.match(unknown.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    const good = await token('mia.member@northwind.example');
    const query = await fetch(`${url}?access_token=${good}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify(init) });
    assert.equal(query.status, 401);
    assert.doesNotMatch(query.headers.get('www-authenticate') ?? '', /invalid_token/);
    const foreign = await rpc(init, { Authorization: `Bearer ${await token('mia.member@northwind.example', ['mcp'], 'https://other.example/mcp')}` });
    assert.equal(foreign.status, 401);
  });

  it('should return 403 insufficient_scope for a token without mcp', async () => {
    const res = await rpc(init, { Authorization: `Bearer ${await token('mia.member@northwind.example', ['offline_access'])}` });
    assert.equal(res.status, 403);
    assert.match(res.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
    assert.match(res.headers.get('www-authenticate') ?? '', /scope="mcp"/);
  });

  /** A Northwind user's token answered once, the user then disabled while `body` runs, and enabled again. */
  async function disabledAfterUse(email: string, body: (bearer: string) => Promise<void>): Promise<void> {
    const db = service.ctx.store.db;
    const northwind = (await findOrganizationByDomain(db, 'northwind.example'))!;
    const user = (await findUserByEmail(db, northwind.id, email))!;
    const bearer = await token(email);
    assert.equal((await rpc(init, { Authorization: `Bearer ${bearer}` })).status, 200);
    await setUserStatus(db, northwind.id, user.id, 'disabled');
    try {
      await body(bearer);
    } finally {
      await setUserStatus(db, northwind.id, user.id, 'active');
    }
  }

  async function assertRefusedAsDisabled(bearer: string): Promise<void> {
    const refused = await rpc(init, { Authorization: `Bearer ${bearer}` });
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { error_description: string }).error_description, /disabled/);
  }

  it('should refuse a disabled user whose token was in use, once the principal reuse bound has passed', async () => {
    await disabledAfterUse('vic.viewer@northwind.example', async (warm) => {
      await new Promise((r) => setTimeout(r, VERIFIED_REUSE_MS + 100));
      await assertRefusedAsDisabled(warm);
    });
  });

  it('should refuse a disabled user whose token stays in use, within the reuse bound of the read before', async () => {
    await disabledAfterUse('mia.member@northwind.example', async (busy) => {
      const disabledAt = Date.now();
      // Calls all along: the token and the principal are renewed in the background meanwhile.
      while (Date.now() - disabledAt < VERIFIED_REUSE_MS + 100) {
        await (await rpc(init, { Authorization: `Bearer ${busy}` })).arrayBuffer();
        await new Promise((r) => setTimeout(r, 200));
      }
      await assertRefusedAsDisabled(busy);
    });
  });

  it('should return 403 saying why for a disabled user and an expired license', async () => {
    const db = service.ctx.store.db;
    const globex = (await findOrganizationByDomain(db, 'globex.example'))!;
    const gus = (await findUserByEmail(db, globex.id, 'gus.member@globex.example'))!;
    const gusToken = await token('gus.member@globex.example');
    const giaToken = await token('gia.admin@globex.example');
    await setUserStatus(db, globex.id, gus.id, 'disabled');
    try {
      const disabled = await rpc(init, { Authorization: `Bearer ${gusToken}` });
      assert.equal(disabled.status, 403);
      assert.match(((await disabled.json()) as { error_description: string }).error_description, /disabled/);
    } finally {
      await setUserStatus(db, globex.id, gus.id, 'active');
    }
    await setLicense(db, globex.id, { plan: 'expired', trialEndsAt: null, seats: null });
    try {
      const expired = await rpc(init, { Authorization: `Bearer ${giaToken}` });
      assert.equal(expired.status, 403);
      assert.match(((await expired.json()) as { error_description: string }).error_description, /license .* expired/);
    } finally {
      await setLicense(db, globex.id, { plan: 'paid', trialEndsAt: null, seats: 100 });
    }
  });

  it('should return 403 for a disallowed Origin and accept the service\'s own', async () => {
    const auth = { Authorization: `Bearer ${await token('mia.member@northwind.example')}` };
    assert.equal((await rpc(init, { ...auth, Origin: 'https://evil.example' })).status, 403);
    assert.equal((await rpc(init, { ...auth, Origin: service.baseUrl })).status, 200);
  });

  it('should answer preflight without auth, 405 for GET and DELETE, 413 for a body over 1 MiB', async () => {
    const pre = await fetch(url, { method: 'OPTIONS', headers: { Origin: 'https://client.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, mcp-protocol-version' } });
    assert.equal(pre.status, 204);
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /MCP-Protocol-Version/);
    assert.equal((await fetch(url)).status, 405);
    assert.equal((await fetch(url, { method: 'DELETE' })).status, 405);
    const auth = { Authorization: `Bearer ${await token('mia.member@northwind.example')}` };
    const big = await rpc(JSON.stringify({ ...init, pad: 'x'.repeat(1024 * 1024 + 10) }), auth);
    assert.equal(big.status, 413);
  });

  it('should answer 2025-era initialize, notifications with 202 and tool errors as results', async () => {
    const auth = { Authorization: `Bearer ${await token('mia.member@northwind.example')}`, 'MCP-Protocol-Version': '2025-06-18' };
    const res = await rpc(init, auth);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('mcp-session-id'), null);
    const body = (await rpcMessage(res)) as { result: { protocolVersion: string; instructions: string } };
    assert.equal(body.result.protocolVersion, '2025-06-18');
    assert.match(body.result.instructions, /mcp\.json/);
    assert.equal((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, auth)).status, 202);
    const call = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_meetings', arguments: { limit: 'many' } } }, auth);
    const result = (await rpcMessage(call)) as { result: { isError: boolean; content: { text: string }[] } };
    assert.equal(result.result.isError, true);
    assert.match(result.result.content[1]!.text, /invalid_argument/);
    const parse = await rpc('{not json', auth);
    assert.equal(((await rpcMessage(parse)) as { error: { code: number } }).error.code, -32700);
  });

  it('should serve 2026-07-28 requests statelessly: server/discover, private cache hints, header checks', async () => {
    const auth = { Authorization: `Bearer ${await token('mia.member@northwind.example')}`, 'MCP-Protocol-Version': '2026-07-28' };
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const discover = await rpc({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }, { ...auth, 'Mcp-Method': 'server/discover' });
    assert.equal(discover.status, 200);
    const d = (await rpcMessage(discover)) as { result: { supportedVersions?: string[]; resultType?: string } };
    assert.ok(d.result);
    const list = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } }, { ...auth, 'Mcp-Method': 'tools/list' });
    assert.equal(list.status, 200);
    const l = (await rpcMessage(list)) as { result: { tools: unknown[]; cacheScope: string; ttlMs: number; resultType: string } };
    assert.equal(l.result.tools.length, 12);
    assert.equal(l.result.cacheScope, 'private');
    assert.equal(typeof l.result.ttlMs, 'number');
    const mismatch = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_teams', arguments: {}, _meta: meta } }, { ...auth, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'list_meetings' });
    assert.equal(mismatch.status, 400);
    const call = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_teams', arguments: {}, _meta: meta } }, { ...auth, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_teams' });
    const c = (await rpcMessage(call)) as { result: { structuredContent: { me: { email: string } } } };
    assert.equal(c.result.structuredContent.me.email, 'mia.member@northwind.example');
  });

  it('should return 403 for a Host that is not the service\'s', async () => {
    const auth = `Bearer ${await token('mia.member@northwind.example')}`;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { Host: 'rebind.example', Authorization: auth, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify(init));
    });
    assert.equal(status, 403);
  });

  it('should rate-limit per user with 429 and Retry-After', async () => {
    const auth = { Authorization: `Bearer ${await token('vic.viewer@northwind.example')}` };
    let last: Response | undefined;
    for (let i = 0; i < 130; i++) {
      last = await rpc({ jsonrpc: '2.0', id: i, method: 'ping' }, auth);
      if (last.status === 429) break;
    }
    assert.equal(last!.status, 429);
    assert.ok(Number(last!.headers.get('retry-after')) >= 1);
  });
});

describe('POST /mcp per-client rate limit', () => {
  const CLIENT_LIMIT = 3;
  let service: TestService;
  let token: Token;
  before(async () => {
    ({ service, token } = await setup('sqlite', { MCP_CLIENT_REQUESTS_PER_MINUTE: String(CLIENT_LIMIT) }));
  });
  after(() => service.close());
  const ping = async (email: string) =>
    (await fetch(`${service.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${await token(email)}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })).status;

  it('should count one client\'s requests per organization: its users there share a budget, other organizations keep theirs', async () => {
    // Every token is of the same client, as every user of a hosted client with a metadata document shares one client ID.
    const statuses = [];
    for (let i = 0; i < CLIENT_LIMIT; i++) statuses.push(await ping('ada.admin@northwind.example'));
    assert.deepEqual(statuses, [200, 200, 200]);
    assert.equal(await ping('ada.admin@northwind.example'), 429, 'the client\'s budget in Northwind is spent');
    assert.equal(await ping('mia.member@northwind.example'), 429, 'another Northwind user of the client shares it');
    assert.equal(await ping('gia.admin@globex.example'), 200, 'Globex\'s use of the same client is counted apart');
  });
});
