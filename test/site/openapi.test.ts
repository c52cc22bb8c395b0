// site.md "/openapi.json": OpenAPI 3.0.3, version 1.0.0, the public agent API only, valid under a
// real validator, every documented operation served, every public agent-API route documented.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createApp } from '../../src/http/app.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** The spec's endpoint table (agent-access-service.md "Endpoints"): the public agent API. */
const SPEC_ENDPOINTS = [
  'POST /mcp',
  'GET /oauth/authorize',
  'POST /oauth/token',
  'POST /oauth/register',
  'POST /oauth/revoke',
  'GET /.well-known/oauth-authorization-server',
  'GET /.well-known/oauth-protected-resource',
];

type Operation = { operationId?: string; summary?: string; description?: string; responses: Record<string, { content?: Record<string, { example?: unknown; examples?: unknown }> }>; requestBody?: { content: Record<string, { example?: unknown; examples?: unknown; schema?: unknown }> }; security?: Array<Record<string, string[]>> };
type Document = { openapi: string; info: { version: string }; servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, { type: string; flows?: { authorizationCode?: { scopes: Record<string, string>; authorizationUrl: string; tokenUrl: string } } }>; schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> } };

describe('GET /openapi.json', () => {
  let service: TestService;
  let doc: Document;
  before(async () => {
    service = await startTestService();
    const res = await fetch(`${service.baseUrl}/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    doc = (await res.json()) as Document;
  });
  after(async () => service.close());

  test('passes the OpenAPI 3.0 validator of @apidevtools/swagger-parser', async () => {
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  test('is OpenAPI 3.0.3 with info.version 1.0.0 and the API origin as its server', () => {
    assert.equal(doc.openapi, '3.0.3');
    assert.equal(doc.info.version, '1.0.0');
    assert.deepEqual(doc.servers, [{ url: service.baseUrl }]);
  });

  test('documents exactly the public agent API of the spec', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    assert.deepEqual(documented.sort(), [...SPEC_ENDPOINTS].sort());
  });

  test('every operation has an operationId, summary, description, responses with examples', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        assert.ok(op.operationId && !ids.has(op.operationId), `${where} has a unique operationId`);
        ids.add(op.operationId);
        assert.ok(op.summary, `${where} has a summary`);
        assert.ok(op.description && op.description.length > 20, `${where} has a description`);
        if (op.requestBody) {
          for (const media of Object.values(op.requestBody.content)) assert.ok(media.example ?? media.examples, `${where} request has an example`);
        }
        const jsonResponses = Object.values(op.responses).flatMap((r) => Object.entries(r.content ?? {}).filter(([type]) => type === 'application/json'));
        for (const [, media] of jsonResponses) assert.ok(media.example ?? media.examples, `${where} JSON response has an example`);
      }
    }
  });

  test('has an oauth2 authorizationCode scheme with scope mcp, used by POST /mcp', () => {
    const oauth2 = Object.values(doc.components.securitySchemes).find((s) => s.type === 'oauth2');
    const flow = oauth2?.flows?.authorizationCode;
    assert.ok(flow);
    assert.deepEqual(Object.keys(flow.scopes), ['mcp']);
    assert.equal(flow.authorizationUrl, `${service.baseUrl}/oauth/authorize`);
    assert.equal(flow.tokenUrl, `${service.baseUrl}/oauth/token`);
    const mcp = doc.paths['/mcp']!.post!;
    assert.ok(mcp.security?.some((req) => Object.values(req).some((scopes) => scopes.includes('mcp'))));
  });

  test('POST /mcp documents the 401 with WWW-Authenticate and references /.well-known/mcp.json', () => {
    const mcp = doc.paths['/mcp']!.post! as Operation & { responses: Record<string, { headers?: Record<string, unknown> }> };
    assert.ok(mcp.responses['401']?.headers?.['WWW-Authenticate']);
    assert.ok(mcp.description?.includes('/.well-known/mcp.json'));
  });

  test('schemas carry the required fields of the spec field tables', () => {
    const required = (name: string) => doc.components.schemas[name]?.required?.slice().sort();
    assert.deepEqual(required('JsonRpcRequest'), ['jsonrpc', 'method']);
    assert.deepEqual(required('JsonRpcResponse'), ['jsonrpc']);
    assert.deepEqual(required('JsonRpcError'), ['code', 'message']);
    assert.deepEqual(required('TokenRequest'), ['grant_type']);
    assert.deepEqual(required('TokenResponse'), ['access_token', 'token_type']);
    assert.deepEqual(required('OAuthError'), ['error']);
    assert.deepEqual(required('ClientRegistrationRequest'), ['redirect_uris']);
    assert.deepEqual(required('ClientRegistrationResponse'), ['client_id']);
    assert.deepEqual(required('AuthorizationServerMetadata'), ['authorization_endpoint', 'issuer', 'token_endpoint']);
    assert.deepEqual(required('ProtectedResourceMetadata'), ['authorization_servers', 'resource']);
    const props = (name: string) => Object.keys(doc.components.schemas[name]?.properties ?? {}).sort();
    assert.deepEqual(props('TokenResponse'), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    assert.deepEqual(props('ClientRegistrationRequest'), ['client_name', 'grant_types', 'redirect_uris', 'response_types', 'scope', 'token_endpoint_auth_method']);
    assert.deepEqual(props('AuthorizationServerMetadata').length, 10);
  });
});

// The OAuth and MCP routes are built by other parts of the service. This test names each
// documented operation the running server does not serve (404 or 405), so a gap is obvious.
describe('every documented operation exists on the running server', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.close());

  test('no documented path and method answers 404 or 405', async () => {
    const doc = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as Document;
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) {
        const form = path === '/oauth/token' || path === '/oauth/revoke';
        const res = await fetch(`${service.baseUrl}${path}`, {
          method: method.toUpperCase(),
          redirect: 'manual',
          headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : method === 'post' ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {},
          body: method === 'post' ? (form ? '' : '{}') : undefined,
        });
        await res.arrayBuffer();
        if (res.status === 404 || res.status === 405) missing.push(`${method.toUpperCase()} ${path} → ${res.status}`);
      }
    }
    assert.deepEqual(missing, [], `documented in /openapi.json but not served:\n  ${missing.join('\n  ')}`);
  });
});

// The other direction: every agent-facing route the app mounts (under /oauth/, /mcp, and the OAuth
// well-known documents) is documented, unless it is listed here with the reason it is not.
const NOT_AGENT_API: Record<string, string> = {
  'GET /oauth/consent': 'the consent page people see during authorization',
  'POST /oauth/consent': 'the consent form people submit during authorization',
  'GET /oauth/register/:clientId': 'RFC 7592 client read, outside the public agent API of the spec',
  'GET /.well-known/oauth-protected-resource/mcp': 'RFC 9728 path-suffixed alias, named in the documented operation',
  'GET /mcp': 'answers 405: the endpoint is stateless',
  'DELETE /mcp': 'answers 405: the endpoint is stateless',
};
/** The server card is a discovery document of the site (listed in /.well-known/ai-catalog.json). */
const SITE_DOCUMENTS = ['/mcp/server-card'];

describe('every public agent-API route of the app is documented', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.close());

  test('no route under /oauth/, /mcp or /.well-known/oauth-* is missing from /openapi.json', async () => {
    const doc = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as Document;
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`)));
    const mounted = new Set(
      (await createApp(service.ctx)).routes.filter((r) => !['ALL', 'OPTIONS'].includes(r.method))
        .map((r) => `${r.method} ${r.path}`)
        .filter((route) => / \/(oauth|mcp)(\/|$)| \/\.well-known\/oauth-/.test(route))
        .filter((route) => !SITE_DOCUMENTS.includes(route.split(' ')[1]!)),
    );
    const undocumented = [...mounted].filter((route) => !documented.has(route) && !(route in NOT_AGENT_API));
    assert.deepEqual(undocumented, [], `agent-API routes not in /openapi.json:\n  ${undocumented.join('\n  ')}`);
    for (const route of SPEC_ENDPOINTS) assert.ok(mounted.has(route), `${route} is mounted`);
  });
});
