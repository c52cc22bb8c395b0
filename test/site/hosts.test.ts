// site.md: with SITE_URL's host different from BASE_URL's, site routes answer on the site host and
// API routes on the API host; the site's OAuth metadata redirects to the API's. Hosts come from
// configuration: the Host header is compared with them, never used to build a URL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { startTestService, type TestService } from '../support/service.ts';
import { rawRequest } from './support/http.ts';

const SITE = 'https://www.agents.test';

describe('host routing with SITE_URL ≠ BASE_URL', () => {
  let service: TestService;
  let apiHost: string;
  const onSite = (path: string, options: Parameters<typeof rawRequest>[1] = {}) => rawRequest(`${service.baseUrl}${path}`, { ...options, host: 'www.agents.test' });
  const onApi = (path: string, options: Parameters<typeof rawRequest>[1] = {}) => rawRequest(`${service.baseUrl}${path}`, { ...options, host: apiHost });
  before(async () => {
    service = await startTestService({ env: { SITE_URL: SITE } });
    apiHost = new URL(service.baseUrl).host;
  });
  after(async () => service.close());

  test('site pages answer on the site host, with links built from configuration', async () => {
    const res = await onSite('/developers', { headers: { accept: 'text/markdown' } });
    assert.equal(res.status, 200);
    assert.match(res.body, new RegExp(`${service.baseUrl}/mcp`));
    assert.ok(res.body.includes(`${SITE}/llms.txt`));
  });

  test('site pages on the API host redirect to the site host', async () => {
    const res = await onApi('/developers?x=1');
    assert.equal(res.status, 308);
    assert.equal(res.headers.location, `${SITE}/developers?x=1`);
    const home = await onApi('/');
    assert.equal(home.headers.location, `${SITE}/`);
    const llms = await onApi('/llms.txt');
    assert.equal(llms.headers.location, `${SITE}/llms.txt`);
  });

  test('a spoofed Host never reaches a URL: unknown hosts are treated as the API host', async () => {
    const res = await rawRequest(`${service.baseUrl}/developers`, { host: 'evil.example' });
    assert.equal(res.status, 308);
    assert.equal(res.headers.location, `${SITE}/developers`);
  });

  test("the site's /.well-known/oauth-authorization-server redirects to the API's", async () => {
    const res = await onSite('/.well-known/oauth-authorization-server');
    assert.ok(res.status === 301 || res.status === 308, `status ${res.status}`);
    assert.equal(res.headers.location, `${service.baseUrl}/.well-known/oauth-authorization-server`);
  });

  test('API routes do not answer on the site host', async () => {
    const mcp = await onSite('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    assert.equal(mcp.status, 404);
    assert.equal(JSON.parse(mcp.body).jsonrpc, '2.0');
    const token = await onSite('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=refresh_token&refresh_token=x' });
    assert.equal(token.status, 404);
    assert.equal(JSON.parse(token.body).error, 'not_found');
    const card = await onSite('/mcp/server-card');
    assert.equal(card.status, 404);
  });

  test('sign-in addresses typed on the site host go to the API host', async () => {
    const res = await onSite('/login_google/?source=site');
    assert.equal(res.status, 308);
    assert.equal(res.headers.location, `${service.baseUrl}/login_google/?source=site`);
  });

  test('the server card and the stylesheet answer on the API host', async () => {
    const card = await onApi('/mcp/server-card');
    assert.equal(card.status, 200);
    assert.equal(JSON.parse(card.body).remotes[0].url, `${service.baseUrl}/mcp`);
    assert.equal((await onApi('/assets/site.css')).status, 200);
    assert.equal((await onSite('/assets/site.css')).status, 200);
  });

  test('machine-readable files on the site host use both origins correctly', async () => {
    const sitemap = await onSite('/sitemap.xml');
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    assert.ok(locs.length > 0);
    for (const loc of locs) assert.ok(loc.startsWith(`${SITE}/`), loc);
    const manifest = JSON.parse((await onSite('/.well-known/mcp.json')).body);
    assert.equal(manifest.name, 'test.agents.www/agent-access');
    assert.equal(manifest.remotes[0].url, `${service.baseUrl}/mcp`);
    const openapi = JSON.parse((await onSite('/openapi.json')).body);
    assert.deepEqual(openapi.servers, [{ url: service.baseUrl }]);
  });

  test('unknown paths are 404 on both hosts, with recovery links on the site', async () => {
    for (const res of [await onSite('/nope', { headers: { accept: 'application/json' } }), await onApi('/nope', { headers: { accept: 'application/json' } })]) {
      assert.equal(res.status, 404);
      const body = JSON.parse(res.body);
      assert.ok(body.links.some((l: { href: string }) => l.href === `${SITE}/developers`));
    }
  });

  test('health checks answer on both hosts', async () => {
    assert.equal((await onSite('/healthz')).status, 200);
    assert.equal((await onApi('/healthz')).status, 200);
  });
});

describe('one host (SITE_URL = BASE_URL)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.close());

  test('the site serves the authorization server metadata itself instead of redirecting', async () => {
    const res = await fetch(`${service.baseUrl}/.well-known/oauth-authorization-server`, { redirect: 'manual' });
    assert.equal(res.status, 200, 'served by the authorization server on the shared host');
    const body = z.object({ issuer: z.string() }).parse(await res.json());
    assert.equal(body.issuer, service.baseUrl);
  });

  test('a forged Host header never appears in a page, manifest or 404', async () => {
    for (const path of ['/developers', '/llms.txt', '/.well-known/mcp.json', '/openapi.json', '/sitemap.xml', '/nope']) {
      const res = await rawRequest(`${service.baseUrl}${path}`, { host: 'evil.example', headers: { accept: 'text/markdown' } });
      assert.ok(!res.body.includes('evil.example'), path);
      assert.ok(res.body.includes(service.baseUrl), `${path} uses the configured origin`);
    }
  });

  test('pages and API answer on the same host', async () => {
    assert.equal((await fetch(`${service.baseUrl}/developers`, { redirect: 'manual' })).status, 200);
    assert.equal((await fetch(`${service.baseUrl}/mcp/server-card`, { redirect: 'manual' })).status, 200);
  });
});
