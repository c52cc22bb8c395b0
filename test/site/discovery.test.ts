// site.md: /.well-known/mcp.json (server.json 2025-12-11), the server card and AI catalog,
// /robots.txt and /.well-known/security.txt (RFC 9116).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { startTestService, type TestService } from '../support/service.ts';

const packageVersion = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version as string;
const NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

// Reading the documents through schemas is itself a check: a missing or mistyped field fails here.
const Remote = z.object({ type: z.literal('streamable-http'), url: z.string(), supportedProtocolVersions: z.array(z.string()).optional() });
const ServerJson = z.object({
  $schema: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.string(),
  title: z.string(),
  websiteUrl: z.string(),
  remotes: z.array(Remote),
});
const Catalog = z.object({
  specVersion: z.string(),
  entries: z.array(z.object({ identifier: z.string(), displayName: z.string(), type: z.string(), url: z.string() })),
});

describe('discovery documents', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ env: { SITE_URL: '' } });
  });
  after(async () => service.close());

  test('/.well-known/mcp.json is a server.json with the required fields', async () => {
    const res = await fetch(`${service.baseUrl}/.well-known/mcp.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('cache-control') ?? '', /public, max-age=\d+/);
    const doc = ServerJson.parse(await res.json());
    assert.equal(doc.$schema, 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    assert.match(doc.name, NAME_PATTERN);
    assert.equal(doc.name.split('/').length, 2, 'exactly one slash');
    assert.ok(doc.name.length >= 3 && doc.name.length <= 200);
    assert.ok(doc.description.length >= 1 && doc.description.length <= 100, `description is ${doc.description.length} chars`);
    assert.equal(doc.version, packageVersion);
    assert.doesNotMatch(doc.version, /[\^~><=*x]|\s/, 'no version range');
    assert.equal(typeof doc.title, 'string');
    assert.equal(doc.websiteUrl.startsWith(service.baseUrl), true);
    assert.deepEqual(doc.remotes, [{ type: 'streamable-http', url: `${service.baseUrl}/mcp` }]);
  });

  test('the server name is derived from the site domain', async () => {
    const other = await startTestService({ env: { SITE_URL: 'https://agents.example.com' } });
    try {
      const doc = ServerJson.parse(await (await fetch(`${other.baseUrl}/mcp/server-card`)).json());
      assert.equal(doc.name, 'com.example.agents/agent-access');
    } finally {
      await other.close();
    }
  });

  test('/mcp/server-card is the draft SEP-2127 card, CORS-open and cacheable with an ETag', async () => {
    const res = await fetch(`${service.baseUrl}/mcp/server-card`, { headers: { accept: 'application/mcp-server-card+json' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/mcp-server-card\+json/);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    const etag = res.headers.get('etag');
    assert.ok(etag);
    const card = ServerJson.parse(await res.json());
    assert.equal(card.$schema, 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
    assert.match(card.name, NAME_PATTERN);
    assert.ok(card.description.length <= 100);
    assert.equal(card.version, packageVersion);
    assert.equal(card.remotes[0]?.url, `${service.baseUrl}/mcp`);
    const again = await fetch(`${service.baseUrl}/mcp/server-card`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  test('CORS preflight on the discovery documents answers 204 without credentials', async () => {
    const res = await fetch(`${service.baseUrl}/mcp/server-card`, { method: 'OPTIONS', headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET' } });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
  });

  test('/.well-known/ai-catalog.json lists the server card', async () => {
    const res = await fetch(`${service.baseUrl}/.well-known/ai-catalog.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const catalog = Catalog.parse(await res.json());
    assert.equal(catalog.specVersion, 'draft');
    assert.equal(catalog.entries.length, 1);
    const entry = catalog.entries[0]!;
    assert.equal(entry.type, 'application/mcp-server-card+json');
    assert.equal(entry.url, `${service.baseUrl}/mcp/server-card`);
    assert.match(entry.identifier, /^urn:air:[a-z0-9.-]+:agent-access$/);
    assert.equal((await fetch(entry.url)).status, 200);
  });

  test('/robots.txt allows the site, keeps sign-in out of indexes and points to the sitemap', async () => {
    const res = await fetch(`${service.baseUrl}/robots.txt`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    const text = await res.text();
    assert.match(text, /^User-agent: \*$/m);
    assert.match(text, /^Disallow: \/oauth\/$/m);
    assert.doesNotMatch(text, /^Disallow: \/$/m);
    assert.match(text, new RegExp(`^Sitemap: ${service.baseUrl}/sitemap.xml$`, 'm'));
  });

  test('/.well-known/security.txt has Contact and a future Expires less than a year ahead (RFC 9116 §2.5)', async () => {
    const res = await fetch(`${service.baseUrl}/.well-known/security.txt`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    const text = await res.text();
    assert.match(text, /^Contact: (mailto:|https:)\S+$/m);
    const expires = /^Expires: (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)$/m.exec(text)?.[1];
    assert.ok(expires, 'Expires in RFC 3339 UTC');
    const ms = Date.parse(expires) - Date.now();
    assert.ok(ms > 30 * 86_400_000, 'expires well in the future');
    assert.ok(ms < 365 * 86_400_000, 'expires less than a year ahead');
    assert.equal(text.match(/^Expires:/gm)?.length, 1);
    assert.match(text, new RegExp(`^Canonical: ${service.baseUrl}/.well-known/security.txt$`, 'm'));
  });
});
