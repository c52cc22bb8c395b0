// The direct tools/call path (src/mcp/direct-call.ts) must answer exactly as the SDK would: every
// request here goes over HTTP to the running service and, unchanged, to the SDK's own handler
// around the same server (buildServer, the same principal); the JSON-RPC messages must be equal.
// Requests the direct path must leave to the SDK (unknown tool, headers that disagree with the
// body, a bad Accept, odd ids or arguments) are in the same table: if the direct path took one,
// its 200 would differ from the SDK's error.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMcpHandler, type AuthInfo as SdkAuthInfo } from '@modelcontextprotocol/server';
import { pino } from 'pino';
import { startTestService, type TestService } from '../support/service.ts';
import { rpcMessageIn } from '../support/mcp-message.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { issueGrantTokens } from '../../src/auth-server/index.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { findUserByEmail } from '../../src/store/users.ts';
import { principalFromAuth } from '../../src/access/principal.ts';
import { buildServer, serverInstructions } from '../../src/mcp/server.ts';
import { directToolCall } from '../../src/mcp/direct-call.ts';
import { toolsByName } from '../../src/mcp/tools/index.ts';

type Era = '2025-11-25' | '2026-07-28';
const WINDOW = { start: '2026-06-01', end: '2026-11-18' };

function request(url: string, token: string, era: Era, body: Record<string, unknown>, overrides: Record<string, string | null> = {}): Request {
  const params = (body.params ?? {}) as Record<string, unknown>;
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': era, authorization: `Bearer ${token}` };
  if (era === '2026-07-28') {
    headers['mcp-method'] = String(body.method);
    if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  }
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  return new Request(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

function call(era: Era, name: unknown, args: unknown, id: unknown = 1, extraMeta: Record<string, unknown> = {}): Record<string, unknown> {
  const params: Record<string, unknown> = { name, arguments: args };
  if (era === '2026-07-28') {
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': era,
      'io.modelcontextprotocol/clientInfo': { name: 'direct-call-test', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
      ...extraMeta,
    };
  }
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

/** Status and message of an answer; a body that holds no JSON-RPC message is compared as it is. */
async function answer(res: Response): Promise<{ status: number; message: unknown }> {
  const text = await res.text();
  try {
    return { status: res.status, message: text ? rpcMessageIn(text, res.headers.get('content-type')) : null };
  } catch {
    return { status: res.status, message: text };
  }
}

describe('POST /mcp direct tools/call answers as the SDK does', () => {
  let service: TestService;
  let token: string;
  let sdk: ReturnType<typeof createMcpHandler>;
  let sdkAuth: SdkAuthInfo;
  let meetingId: string;

  before(async () => {
    service = await startTestService({ dialect: 'sqlite' });
    await seedDemo(service.ctx.store, { meetings: 60, documents: 10, appUrl: service.ctx.config.appUrl, anchor: Date.UTC(2026, 10, 18, 12) });
    const db = service.ctx.store.db;
    const org = (await findOrganizationByDomain(db, 'northwind.example'))!;
    const user = (await findUserByEmail(db, org.id, 'ada.admin@northwind.example'))!;
    token = (await issueGrantTokens(service.ctx, { userId: user.id, orgId: org.id, clientId: 'test-client', scopes: ['mcp'], resource: `${service.baseUrl}/mcp` })).accessToken;
    const principal = await principalFromAuth(db, { userId: user.id, orgId: org.id });
    assert.ok(principal.ok);
    const { config } = service.ctx;
    const deps = { store: service.ctx.store, appUrl: config.appUrl, siteUrl: config.siteUrl, cursorKey: config.secrets.hash, logger: pino({ level: 'silent' }) };
    sdk = createMcpHandler(() => buildServer(deps, principal.principal, serverInstructions(config.siteUrl)), { legacy: 'stateless' });
    sdkAuth = { token, clientId: 'test-client', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) + 3600, resource: new URL(`${service.baseUrl}/mcp`) };
    const withTranscript = await db.selectFrom('meetings').select('id').where('org_id', '=', org.id).where('has_transcript', '=', 1).limit(1).executeTakeFirstOrThrow();
    meetingId = withTranscript.id;
  });
  after(() => service.close());

  const cases: { name: string; era: Era; body: () => Record<string, unknown>; headers?: Record<string, string | null>; direct: boolean }[] = [];
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    cases.push(
      { name: 'list_meetings page', era, body: () => call(era, 'list_meetings', { ...WINDOW, limit: 3 }), direct: true },
      { name: 'list_meetings with a string id', era, body: () => call(era, 'list_meetings', { ...WINDOW, limit: 2 }, 'req-7'), direct: true },
      { name: 'get_teams without arguments', era, body: () => call(era, 'get_teams', undefined), direct: true },
      { name: 'a transcript page (text block is a rendering)', era, body: () => call(era, 'get_meeting_transcript', { meeting_id: meetingId, max_chars: 1500 }), direct: true },
      { name: 'a not_found tool error', era, body: () => call(era, 'get_meeting', { meeting_id: 'mtg_nope' }), direct: true },
      { name: 'invalid arguments', era, body: () => call(era, 'get_meeting', { x: 1 }), direct: true },
      { name: 'an unknown tool', era, body: () => call(era, 'no_such_tool', {}), direct: false },
      { name: 'arguments that are an array', era, body: () => call(era, 'get_teams', []), direct: false },
      { name: 'a null id', era, body: () => call(era, 'get_teams', {}, null), direct: false },
      { name: 'a fractional id', era, body: () => call(era, 'get_teams', {}, 1.5), direct: false },
      // The SDK refuses these 2025-era requests (406) but serves 2026-07-28 ones whatever they accept.
      { name: 'Accept without event-stream', era, body: () => call(era, 'get_teams', {}), headers: { accept: 'application/json' }, direct: era === '2026-07-28' },
      { name: 'no Accept', era, body: () => call(era, 'get_teams', {}), headers: { accept: null }, direct: era === '2026-07-28' },
    );
  }
  cases.push(
    { name: 'Mcp-Name that names another tool', era: '2026-07-28', body: () => call('2026-07-28', 'get_teams', {}), headers: { 'mcp-name': 'list_meetings' }, direct: false },
    { name: 'Mcp-Method that names another method', era: '2026-07-28', body: () => call('2026-07-28', 'get_teams', {}), headers: { 'mcp-method': 'tools/list' }, direct: false },
    { name: 'no Mcp-Name', era: '2026-07-28', body: () => call('2026-07-28', 'get_teams', {}), headers: { 'mcp-name': null }, direct: false },
    { name: 'a header version unlike the envelope', era: '2026-07-28', body: () => call('2026-07-28', 'get_teams', {}), headers: { 'mcp-protocol-version': '2025-11-25' }, direct: false },
    // After the plain envelope above was answered directly: the SDK's classification is remembered by the envelope's content, not its keys.
    { name: 'an envelope whose clientInfo is not an object', era: '2026-07-28', body: () => call('2026-07-28', 'get_teams', {}, 1, { 'io.modelcontextprotocol/clientInfo': 'direct-call-test' }), direct: false },
    { name: 'an envelope naming another protocol version', era: '2026-07-28', body: () => call('2026-07-28', 'get_teams', {}, 1, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }), headers: { 'mcp-protocol-version': '2099-01-01' }, direct: false },
    { name: 'a progress token', era: '2026-07-28', body: () => call('2026-07-28', 'get_teams', {}, 3, { progressToken: 'p1' }), direct: false },
    { name: 'an unsupported 2025-era version header', era: '2025-11-25', body: () => call('2025-11-25', 'get_teams', {}), headers: { 'mcp-protocol-version': '2024-01-01' }, direct: false },
    { name: 'no version header (2025-03-26)', era: '2025-11-25', body: () => call('2025-11-25', 'get_teams', {}), headers: { 'mcp-protocol-version': null }, direct: true },
    { name: 'a text/plain body', era: '2025-11-25', body: () => call('2025-11-25', 'get_teams', {}), headers: { 'content-type': 'text/plain' }, direct: false },
  );

  for (const c of cases) {
    it(`${c.era}: ${c.name} → ${c.direct ? 'answered directly' : "left to the SDK"}, same message`, async () => {
      const body = c.body();
      // The route taken is the one the name says: the direct path claims exactly the plain cases.
      const routed = directToolCall(request(`${service.baseUrl}/mcp`, token, c.era, body, c.headers).headers, body, toolsByName);
      assert.equal(routed !== undefined, c.direct);
      const viaService = await answer(await fetch(request(`${service.baseUrl}/mcp`, token, c.era, body, c.headers)));
      const viaSdk = await answer(await sdk.fetch(request(`${service.baseUrl}/mcp`, token, c.era, body, c.headers), { authInfo: sdkAuth }));
      assert.equal(viaService.status, viaSdk.status);
      assert.deepEqual(viaService.message, viaSdk.message);
      if (c.direct) assert.equal(viaService.status, 200);
    });
  }

  it('answers a direct call as JSON, in either era', async () => {
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const res = await fetch(request(`${service.baseUrl}/mcp`, token, era, call(era, 'get_teams', {})));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.ok(res.headers.get('x-request-id'));
    }
  });

  it('sends a direct answer as UTF-8 with its exact length, multi-byte characters included', async () => {
    const res = await fetch(request(`${service.baseUrl}/mcp`, token, '2026-07-28', call('2026-07-28', 'list_meetings', { ...WINDOW, limit: 25 })));
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(Number(res.headers.get('content-length')), bytes.byteLength);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const meetings = (JSON.parse(text) as { result: { structuredContent: { meetings: { title: string }[] } } }).result.structuredContent.meetings;
    assert.ok(meetings.some((m) => m.title.includes('—')), 'the demo titles hold em dashes');
  });

  // The messages above are compared parsed; the SDK writes JSON.stringify's bytes, and so must the
  // direct path, which quotes a list page's JSON for its text block byte by byte (utf8JsonTwice).
  it('sends a list page in the bytes JSON.stringify writes, in either era', async () => {
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const res = await fetch(request(`${service.baseUrl}/mcp`, token, era, call(era, 'list_meetings', { ...WINDOW, limit: 25 })));
      const bytes = Buffer.from(await res.arrayBuffer());
      const message = JSON.parse(bytes.toString('utf8')) as { result: { content: { text: string }[]; structuredContent: unknown } };
      assert.equal(message.result.content[0]!.text, JSON.stringify(message.result.structuredContent), `${era}: the text block is the structured content's JSON`);
      assert.ok(bytes.includes(Buffer.from('—')), 'multi-byte characters in the page');
      assert.deepEqual(bytes, Buffer.from(JSON.stringify(message), 'utf8'), era);
    }
  });
});
