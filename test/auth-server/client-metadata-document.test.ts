import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPublicAddress } from '../../src/auth-server/clients/safe-fetch.ts';
import { ConfigError, loadConfig } from '../../src/config/load.ts';
import { findClient } from '../../src/store/oauth-clients.ts';
import { authorizeUrl, BASE_URL, consentForm, exchange, pkce, signedInBrowser, startHarness, type Harness } from './harness.ts';
import { dialectsUnderTest } from '../support/databases.ts';

type Route = { status?: number; type?: string; body: string; headers?: Record<string, string> };

/** A local server standing in for a client's metadata host. */
async function documentServer(routes: Map<string, Route>): Promise<{ origin: string; hits: Map<string, number>; close(): Promise<void> }> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'application/json', ...route.headers }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { origin: `http://localhost:${port}`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('client ID metadata documents', () => {
  let h: Harness;
  let docs: Awaited<ReturnType<typeof documentServer>>;
  const routes = new Map<string, Route>();
  const id = (path: string) => `${docs.origin}${path}`;
  const doc = (path: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ client_id: id(path), client_name: 'Metadata client', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', ...extra });

  before(async () => {
    docs = await documentServer(routes);
    routes.set('/client.json', { body: doc('/client.json'), headers: { 'cache-control': 'max-age=600' } });
    routes.set('/mismatch.json', { body: JSON.stringify({ client_id: 'https://someone-else.example/c.json', redirect_uris: ['http://127.0.0.1/callback'] }) });
    routes.set('/redirect.json', { status: 302, body: '', headers: { location: '/client.json' } });
    routes.set('/huge.json', { body: doc('/huge.json', { padding: 'x'.repeat(6000) }) });
    routes.set('/html.json', { type: 'text/html', body: doc('/html.json') });
    routes.set('/secret.json', { body: doc('/secret.json', { token_endpoint_auth_method: 'client_secret_basic' }) });
    routes.set('/fragment.json', { body: doc('/fragment.json', { redirect_uris: ['https://app.example/cb#x'] }) });
    routes.set('/uncached.json', { body: doc('/uncached.json'), headers: { 'cache-control': 'no-store' } });
    h = await startHarness('sqlite', { CLIENT_METADATA_ALLOW_HTTP_LOCALHOST: 'true' });
  });
  after(async () => {
    await h.close();
    await docs.close();
  });

  it('a metadata-document client completes the flow; the consent page shows the document host; the result is cached', async () => {
    const clientId = id('/client.json');
    const browser = await signedInBrowser(h);
    const { verifier, challenge } = pkce();
    const page = await browser.get(authorizeUrl({ client_id: clientId, redirect_uris: ['http://127.0.0.1:5555/callback'], registration_access_token: '' }, challenge));
    const text = await page.text();
    assert.equal(page.status, 200, text);
    assert.ok(text.includes(new URL(clientId).host), 'the document host is shown');
    assert.match(text, /Metadata client/);
    const res = await browser.post('/oauth/consent', { ...consentForm(text), decision: 'approve' });
    const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const token = await exchange(h, { client_id: clientId, redirect_uris: ['http://127.0.0.1:5555/callback'], registration_access_token: '' }, code, verifier);
    assert.equal(token.status, 200, await token.clone().text());
    const stored = await findClient(h.ctx.store.db, clientId);
    assert.equal(stored?.kind, 'metadata_document');
    const expires = stored?.metadataExpiresAt;
    assert.ok(expires && expires > Date.now() && expires - Date.now() <= 600_000, 'cached per its max-age');
    assert.equal(docs.hits.get('/client.json'), 1, 'fetched once, then served from cache');
  });

  it('an uncacheable document is fetched once per authorization request, not once per check', async () => {
    const browser = await signedInBrowser(h);
    const res = await browser.get(authorizeUrl({ client_id: id('/uncached.json'), redirect_uris: ['http://127.0.0.1:5555/callback'], registration_access_token: '' }, pkce().challenge));
    assert.equal(res.status, 200, 'the consent page');
    assert.equal(docs.hits.get('/uncached.json'), 1);
    // Not cached: the next authorization request fetches it again.
    const again = await browser.get(authorizeUrl({ client_id: id('/uncached.json'), redirect_uris: ['http://127.0.0.1:5555/callback'], registration_access_token: '' }, pkce().challenge));
    assert.equal(again.status, 200, 'the consent page again');
    assert.equal(docs.hits.get('/uncached.json'), 2);
  });

  const refusedAtAuthorize = async (path: string, why: RegExp) => {
    const res = await h.request(authorizeUrl({ client_id: id(path), redirect_uris: ['http://127.0.0.1/callback'], registration_access_token: '' }, pkce().challenge));
    assert.equal(res.status, 400, path);
    assert.equal(res.headers.get('location'), null);
    assert.match(await res.text(), why);
  };

  it('the client_id inside must equal the document URL', async () => refusedAtAuthorize('/mismatch.json', /differs/));
  it('redirects are not followed', async () => refusedAtAuthorize('/redirect.json', /302/));
  it('documents over 5 KB are refused', async () => refusedAtAuthorize('/huge.json', /5120 bytes/));
  it('non-JSON documents are refused', async () => refusedAtAuthorize('/html.json', /application\/json/));
  it('a document cannot claim a shared-secret method', async () => refusedAtAuthorize('/secret.json', /shared secret/));
  it('redirect URIs in the document follow the registration rules', async () => refusedAtAuthorize('/fragment.json', /fragment/));

  it('a redirect_uri not listed in the document is refused locally', async () => {
    const res = await h.request(authorizeUrl({ client_id: id('/client.json'), redirect_uris: ['https://evil.example/cb'], registration_access_token: '' }, pkce().challenge));
    assert.equal(res.status, 400);
  });

  it('SSRF: without the development switch, a loopback document is refused before any request reaches it', async () => {
    const strict = await startHarness('sqlite');
    try {
      const before = docs.hits.get('/client.json') ?? 0;
      const httpsLoopback = `https://127.0.0.1:${new URL(docs.origin).port}/client.json`;
      for (const clientId of [id('/client.json'), httpsLoopback, 'https://[::1]/client.json', 'https://169.254.169.254/latest/meta-data/']) {
        const res = await strict.request(authorizeUrl({ client_id: clientId, redirect_uris: ['http://127.0.0.1/callback'], registration_access_token: '' }, pkce().challenge));
        assert.equal(res.status, 400, clientId);
      }
      const viaName = await strict.request(authorizeUrl({ client_id: `https://localhost:${new URL(docs.origin).port}/client.json`, redirect_uris: ['http://127.0.0.1/callback'], registration_access_token: '' }, pkce().challenge));
      assert.match(await viaName.text(), /public address/, 'a name resolving to loopback is refused by the lookup guard');
      const literal = await strict.request(authorizeUrl({ client_id: httpsLoopback, redirect_uris: ['http://127.0.0.1/callback'], registration_access_token: '' }, pkce().challenge));
      assert.match(await literal.text(), /not a public address/, 'an IP literal is refused before connecting');
      assert.equal(docs.hits.get('/client.json') ?? 0, before);
    } finally {
      await strict.close();
    }
  });

  it('SSRF: only public addresses are fetched', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '224.0.0.1']) {
      assert.equal(isPublicAddress(a), false, a);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) assert.equal(isPublicAddress(a), true, a);
  });

  it('the http://localhost development switch is refused in production', () => {
    assert.throws(
      () => loadConfig({ APP_ENV: 'production', BASE_URL: 'https://a.example', DATABASE_URL: 'sqlite:/tmp/x.db', HASH_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'), CLIENT_METADATA_ALLOW_HTTP_LOCALHOST: 'true' }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'CLIENT_METADATA_ALLOW_HTTP_LOCALHOST',
    );
  });

  it('metadata advertises client_id_metadata_document_supported', async () => {
    const m = (await (await h.request('/.well-known/oauth-authorization-server')).json()) as Record<string, unknown>;
    assert.equal(m.client_id_metadata_document_supported, true);
    assert.equal(m.issuer, BASE_URL);
  });
});

for (const dialect of dialectsUnderTest()) {
  describe(`client metadata documents with control characters in their text (${dialect})`, () => {
    let h: Harness;
    let docs: Awaited<ReturnType<typeof documentServer>>;
    const routes = new Map<string, Route>();
    const id = (path: string) => `${docs.origin}${path}`;
    // JSON.stringify writes the control characters as \u escapes, as a real document would.
    const doc = (path: string, extra: Record<string, unknown>) =>
      JSON.stringify({ client_id: id(path), client_name: 'Metadata client', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', ...extra });
    const BAD: Record<string, Record<string, unknown>> = {
      '/nul-software-id.json': { software_id: 'sw\u0000id' },
      '/nul-software-version.json': { software_version: '1.0\u0000' },
      '/escape-client-uri.json': { client_uri: 'https://app.example/\u001b[31m' },
      '/nul-redirect.json': { redirect_uris: ['http://127.0.0.1/callback', 'http://127.0.0.1/c\u0000b'] },
    };

    before(async () => {
      docs = await documentServer(routes);
      for (const [path, extra] of Object.entries(BAD)) routes.set(path, { body: doc(path, extra) });
      h = await startHarness(dialect, { CLIENT_METADATA_ALLOW_HTTP_LOCALHOST: 'true' });
    });
    after(async () => {
      await h.close();
      await docs.close();
    });

    it('a document whose text holds a NUL or another control character is refused on a local page, like any invalid document, and nothing is cached', async () => {
      for (const [path, extra] of Object.entries(BAD)) {
        const field = Object.keys(extra)[0] ?? '';
        const res = await h.request(authorizeUrl({ client_id: id(path), redirect_uris: ['http://127.0.0.1/callback'], registration_access_token: '' }, pkce().challenge));
        const page = await res.text();
        assert.equal(res.status, 400, `${path}: ${page.slice(0, 300)}`);
        assert.equal(res.headers.get('location'), null);
        assert.match(page, new RegExp(`metadata document is invalid: ${field}: must not contain control characters`), path);
        assert.equal(await findClient(h.ctx.store.db, id(path)), undefined, `${path} is not cached`);
      }
    });
  });
}
