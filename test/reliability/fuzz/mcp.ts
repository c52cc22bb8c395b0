// Generated requests for POST /mcp in both eras (2025-era and 2026-07-28 headers and _meta), with
// JSON-RPC messages that are malformed, mistyped, batched, unknown, or tool calls whose arguments
// mix real ids, cursors and emails of both organizations with garbage; plus the well-known
// documents and the site. The oracle: no 5xx, no stack trace, and every answer in the protocol's
// format — a JSON-RPC response (JSON or SSE), 202 with no body for notifications, or the HTTP
// layer's JSON error for 401/403/405/413/429.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Fixture } from './fixture.ts';
import type { FuzzRequest, FuzzResponse } from './http.ts';
import { assertNo5xx, header, type Endpoint } from './oauth.ts';
import { anyJson, anyString, contentType, headerValue, rawJsonBody } from './values.ts';

const METHODS = ['initialize', 'notifications/initialized', 'tools/list', 'tools/call', 'ping', 'server/discover', 'resources/list', 'prompts/list', 'completion/complete', 'logging/setLevel', 'notifications/cancelled', 'sampling/createMessage'];
const VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', '2024-11-05', '2099-01-01', 'latest'];
/** null most of the time (weight : 1), else a value. */
const rarely = <T>(arb: fc.Arbitrary<T>, weight: number) => fc.oneof({ weight, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
const TOOL_ERROR_CODES = new Set(['not_found', 'forbidden', 'no_transcript', 'invalid_argument', 'rate_limited', 'unavailable']);

function toolArguments(f: Fixture, tool: string): fc.Arbitrary<unknown> {
  const names = Object.hasOwn(f.toolArgs, tool) ? f.toolArgs[tool]! : [];
  const real = fc.constantFrom(...f.ids, ...f.emails, ...f.cursors, 'me', 'last_30_days', 'this_quarter', '2026-01-01', '2026-13-45', '00:10:00', 'notes', 'participants', 'crm');
  const value = fc.oneof({ weight: 4, arbitrary: real }, { weight: 3, arbitrary: anyJson }, { weight: 1, arbitrary: fc.array(real, { maxLength: 25 }) }, { weight: 1, arbitrary: fc.integer({ min: -1e6, max: 1e9 }) });
  const known = names.length ? fc.dictionary(fc.constantFrom(...names), value, { maxKeys: names.length }) : fc.constant({});
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(known, fc.dictionary(anyString, anyJson, { maxKeys: 2 })).map(([k, extra]) => ({ ...k, ...extra })) },
    { weight: 1, arbitrary: known },
    { weight: 1, arbitrary: anyJson },
  );
}

function message(f: Fixture, era: 'legacy' | 'modern'): fc.Arbitrary<Record<string, unknown>> {
  const toolName = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...Object.keys(f.toolArgs)) }, { weight: 1, arbitrary: anyString });
  const call = toolName.chain((name) => toolArguments(f, name).map((args) => ({ name, arguments: args })));
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const params = fc.oneof(
    { weight: 16, arbitrary: call },
    { weight: 1, arbitrary: fc.record({ cursor: fc.oneof(fc.constantFrom(...f.cursors), anyString) }) },
    { weight: 1, arbitrary: fc.record({ protocolVersion: fc.constantFrom(...VERSIONS), capabilities: anyJson, clientInfo: anyJson }) },
    { weight: 1, arbitrary: anyJson },
  );
  return fc
    .record(
      {
        jsonrpc: fc.oneof({ weight: 30, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: anyJson }),
        id: fc.oneof({ weight: 12, arbitrary: fc.integer() }, { weight: 4, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: anyJson }),
        method: fc.oneof({ weight: 12, arbitrary: fc.constantFrom('tools/call') }, { weight: 8, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: anyString }),
        params,
        metaRoll: fc.integer({ min: 0, max: 9 }),
      },
      { requiredKeys: ['jsonrpc', 'method', 'params', 'metaRoll'] },
    )
    .map(({ metaRoll, ...m }) => {
      // A modern client sends _meta (mostly); a 2025-era one does not (mostly).
      const wantsMeta = era === 'modern' ? metaRoll < 8 : metaRoll < 2;
      if (wantsMeta && m.params && typeof m.params === 'object' && !Array.isArray(m.params)) return { ...m, params: { ...(m.params as object), _meta: meta } };
      return m;
    });
}

export const mcp: Endpoint = {
  name: 'POST /mcp',
  arbitrary: (f) => {
    const era = fc.constantFrom('legacy' as const, 'modern' as const);
    return era.chain((e) =>
      fc
        .record({
          body: fc.oneof(
            { weight: 10, arbitrary: message(f, e).map((m) => JSON.stringify(m)) },
            { weight: 1, arbitrary: fc.array(message(f, e), { maxLength: 4 }).map((b) => JSON.stringify(b)) },
            { weight: 2, arbitrary: rawJsonBody },
          ),
          tokenIndex: fc.nat(),
          auth: fc.oneof({ weight: 12, arbitrary: fc.constant('valid') }, { weight: 1, arbitrary: fc.constant('none') }, { weight: 1, arbitrary: headerValue }),
          version: rarely(fc.oneof(fc.constantFrom(...VERSIONS), headerValue), 6),
          methodHeader: rarely(fc.oneof(fc.constantFrom(...METHODS), headerValue), 3),
          nameHeader: rarely(fc.oneof(fc.constantFrom(...Object.keys(f.toolArgs)), headerValue), 3),
          accept: fc.oneof({ weight: 6, arbitrary: fc.constant('application/json, text/event-stream') }, { weight: 1, arbitrary: fc.constantFrom(undefined, 'application/json', 'text/event-stream', 'text/html', '*/*', '') }),
          type: fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: contentType }),
          origin: rarely(fc.oneof(fc.constantFrom(f.base, 'https://evil.example', 'null', 'http://localhost:1', 'not a url'), headerValue), 12),
          session: rarely(headerValue, 8),
        })
        .map((g): FuzzRequest => {
          const headers: Record<string, string> = {};
          if (g.auth === 'valid') headers.authorization = `Bearer ${f.tokens[g.tokenIndex % f.tokens.length]}`;
          else if (g.auth !== 'none') headers.authorization = g.auth;
          if (g.type !== undefined) headers['content-type'] = g.type;
          if (g.accept !== undefined) headers.accept = g.accept;
          if (g.origin !== null) headers.origin = g.origin;
          if (g.session !== null) headers['mcp-session-id'] = g.session;
          if (e === 'modern') {
            headers['mcp-protocol-version'] = g.version ?? '2026-07-28';
            // Mostly the headers a real modern client sends, derived from the body; sometimes not.
            let parsed: { method?: unknown; params?: { name?: unknown } } | undefined;
            try {
              parsed = JSON.parse(g.body) as typeof parsed;
            } catch {
              parsed = undefined;
            }
            const m = g.methodHeader ?? (typeof parsed?.method === 'string' ? parsed.method : undefined);
            if (m !== undefined) headers['mcp-method'] = m;
            const n = g.nameHeader ?? (typeof parsed?.params?.name === 'string' ? parsed.params.name : undefined);
            if (n !== undefined) headers['mcp-name'] = n;
          } else if (g.version !== null) {
            headers['mcp-protocol-version'] = g.version;
          }
          // Node refuses non-latin1 header values; the fuzz targets what can be sent.
          for (const [k, v] of Object.entries(headers)) if (/[^\x20-\x7e]/.test(v)) headers[k] = encodeURIComponent(v.toWellFormed());
          return { method: 'POST', path: '/mcp', headers, body: g.body };
        }),
    );
  },
  check: (_f, _req, res) => {
    assertNo5xx(res, 'mcp');
    if (res.status === 202) {
      assert.equal(res.body, '', '202 carries no body');
      return;
    }
    const type = header(res, 'content-type');
    if (type.includes('text/event-stream')) {
      const events = res.body.split('\n').filter((l) => l.startsWith('data: '));
      assert.ok(events.length > 0, 'an SSE answer with no data event');
      for (const e of events) assertRpc(JSON.parse(e.slice(6)));
      return;
    }
    assert.match(type, /application\/json/, `mcp ${res.status}: ${type} is not JSON`);
    const body = JSON.parse(res.body) as unknown;
    if (Array.isArray(body)) {
      for (const m of body) assertRpc(m);
      return;
    }
    const o = body as Record<string, unknown>;
    if ('jsonrpc' in o) return assertRpc(o);
    // The HTTP layer in front of the SDK: auth, Origin/Host, method, size, rate limits.
    assert.ok([400, 401, 403, 404, 405, 406, 413, 415, 429].includes(res.status), `mcp: HTTP-layer error with ${res.status}`);
    assert.equal(typeof o.error, 'string', `mcp ${res.status}: neither JSON-RPC nor an error object: ${res.body.slice(0, 200)}`);
    if (res.status === 401) assert.match(header(res, 'www-authenticate'), /^Bearer .*resource_metadata="/);
  },
};

function assertRpc(m: unknown) {
  assert.ok(m && typeof m === 'object', 'a JSON-RPC message is an object');
  const o = m as { jsonrpc?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
  assert.equal(o.jsonrpc, '2.0');
  assert.ok(('result' in o) !== ('error' in o), 'exactly one of result and error');
  if (o.error) {
    assert.ok(Number.isInteger(o.error.code), 'error.code is an integer');
    assert.equal(typeof o.error.message, 'string');
    return;
  }
  const result = o.result as { isError?: boolean; content?: { type: string; text?: string }[] };
  if (result && result.isError === true && Array.isArray(result.content) && result.content[1]?.text) {
    const detail = JSON.parse(result.content[1].text) as { error?: { code?: string } };
    assert.ok(TOOL_ERROR_CODES.has(detail.error?.code ?? ''), `tool error code ${detail.error?.code}`);
  }
}

const WELL_KNOWN = ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/mcp.json', '/.well-known/openid-configuration', '/.well-known/security.txt', '/.well-known/ai-catalog.json', '/.well-known/mcp/catalog.json', '/mcp/server-card', '/openapi.json'];
const SITE = ['/', '/developers', '/developers/tools', '/security', '/get-started', '/pricing', '/status', '/llms.txt', '/sitemap.xml', '/robots.txt', '/index.md', '/developers.md', '/assets/site.css', '/signin', '/welcome', '/account', '/healthz', '/readyz', '/login_google/', '/login_ms/', '/login_sso/', '/favicon.ico'];

export const documents: Endpoint = {
  name: 'well-known documents and the site',
  arbitrary: () => {
    const suffix = fc.oneof(fc.constant(''), fc.constantFrom('/', '//', '/..', '/%2e%2e/', '/x', '.md', '?', '?a=%', '?return_to=https://evil.example', '?email=%00', '%00', '/%ED%A0%80', ';jsessionid=1', '/' + 'a'.repeat(5000)), anyString.map((s) => `/${encodeURIComponent(s.toWellFormed())}`));
    return fc
      .record({
        path: fc.oneof(fc.constantFrom(...WELL_KNOWN), fc.constantFrom(...SITE)),
        suffix,
        method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE'),
        accept: fc.option(fc.oneof(fc.constantFrom('text/markdown', 'text/html', 'application/json', '*/*', 'text/markdown;q=0.9, text/html;q=0.1', 'image/png', 'text/*;q=abc'), headerValue)),
        host: rarely(fc.constantFrom('evil.example', 'localhost', '127.0.0.1', '[::1]', ''), 6),
      })
      .map(({ path, suffix, method, accept, host }): FuzzRequest => ({ method, path: `${path}${suffix}`, headers: { ...(accept !== null ? { accept } : {}), ...(host !== null ? { host } : {}) } }));
  },
  check: (f, req, res) => {
    assertNo5xx(res, 'site');
    const path = new URL(`${f.base}${req.path}`).pathname;
    if (res.status === 200 && req.method === 'GET' && ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'].includes(path)) {
      const doc = JSON.parse(res.body) as { issuer?: string; resource?: string };
      assert.ok(doc.issuer === f.base || doc.resource === `${f.base}/mcp`, 'metadata names this service, never the Host header');
    }
    if (header(res, 'content-type').includes('text/html') && req.method !== 'HEAD') assert.match(header(res, 'content-security-policy'), /frame-ancestors 'none'/);
  },
};
