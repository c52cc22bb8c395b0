// site.md "Not found": 404 (never a soft 200 or a blanket redirect) with recovery links and the
// closest existing paths; HTML with noindex, Markdown or JSON by Accept; /oauth/ and /mcp in their
// own protocol's error format.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { closestPaths } from '../../src/site/not-found.ts';
import { startTestService, type TestService } from '../support/service.ts';

const NotFoundJson = z.object({ error: z.literal('not_found'), path: z.string(), links: z.array(z.object({ title: z.string(), href: z.string() })) });
const JsonRpcError = z.object({ jsonrpc: z.literal('2.0'), id: z.null(), error: z.object({ code: z.number().int(), message: z.string() }) });
const OAuthError = z.object({ error: z.string(), error_description: z.string() });

const RECOVERY = ['/', '/developers', '/llms.txt', '/sitemap.xml', '/openapi.json'];

describe('closestPaths', () => {
  test('suggests the page a typo meant', () => {
    assert.equal(closestPaths('/developrs')[0], '/developers');
    assert.equal(closestPaths('/secruity')[0], '/security');
    assert.equal(closestPaths('/llms.text')[0], '/llms.txt');
    assert.equal(closestPaths('/Developers')[0], '/developers');
  });
  test('suggests a parent for a deeper unknown path', () => {
    assert.ok(closestPaths('/developers/tools/list_meetings/extra').includes('/developers/tools'));
  });
  test('suggests nothing for a path like no other', () => {
    assert.deepEqual(closestPaths('/zzzzzzzzzzzzzzzzzzzzzzzzzzzz'), []);
  });
});

describe('unknown paths', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.close());

  test('HTML by default: 404, noindex, recovery links and the closest path', async () => {
    const res = await fetch(`${service.baseUrl}/developrs`, { headers: { accept: 'text/html,*/*;q=0.8' } });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('vary'), 'Accept');
    const body = await res.text();
    assert.ok(body.includes('<meta name="robots" content="noindex">'));
    assert.ok(body.includes('<link rel="alternate" type="text/markdown"'));
    for (const path of RECOVERY) assert.ok(body.includes(`href="${service.baseUrl}${path}"`), `links ${path}`);
    assert.ok(body.includes(`href="${service.baseUrl}/developers">/developers</a>`), 'the closest existing path');
  });

  test('Markdown for Accept: text/markdown', async () => {
    const res = await fetch(`${service.baseUrl}/pricng`, { headers: { accept: 'text/markdown' } });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(res.headers.get('vary'), 'Accept');
    const body = await res.text();
    assert.match(body, /^# Not found/);
    assert.ok(body.includes(`- [/pricing](${service.baseUrl}/pricing)`));
    for (const path of RECOVERY) assert.ok(body.includes(`(${service.baseUrl}${path})`), `links ${path}`);
  });

  test('JSON for Accept: application/json: {error, path, links}', async () => {
    const res = await fetch(`${service.baseUrl}/statuz?x=1`, { headers: { accept: 'application/json' } });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = NotFoundJson.parse(await res.json());
    assert.equal(body.path, '/statuz');
    const hrefs = body.links.map((l) => l.href);
    assert.equal(hrefs[0], `${service.baseUrl}/status`);
    for (const path of RECOVERY) assert.ok(hrefs.includes(`${service.baseUrl}${path}`), `links ${path}`);
  });

  test('never a soft 200 or a redirect, for any method and any depth', async () => {
    for (const path of ['/x', '/developers/nothing', '/.well-known/nothing', '/assets/missing.css', '/index.html', '/developers/']) {
      const res = await fetch(`${service.baseUrl}${path}`, { redirect: 'manual' });
      await res.arrayBuffer();
      assert.equal(res.status, 404, path);
    }
    const head = await fetch(`${service.baseUrl}/nothing-here`, { method: 'HEAD' });
    assert.equal(head.status, 404);
  });

  test('the requested path is escaped, never interpreted', async () => {
    const res = await fetch(`${service.baseUrl}/%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
    assert.equal(res.status, 404);
    const body = await res.text();
    assert.ok(!body.includes('<script>'));
  });

  test('under /mcp: a JSON-RPC error object', async () => {
    const res = await fetch(`${service.baseUrl}/mcp/unknown`, { headers: { accept: 'text/html' } });
    assert.equal(res.status, 404);
    const body = JsonRpcError.parse(await res.json());
    assert.match(body.error.message, /POST .*\/mcp/);
  });

  test('under /oauth/: an OAuth error object', async () => {
    const res = await fetch(`${service.baseUrl}/oauth/unknown`, { headers: { accept: 'text/html' } });
    assert.equal(res.status, 404);
    const body = OAuthError.parse(await res.json());
    assert.equal(body.error, 'not_found');
  });
});
