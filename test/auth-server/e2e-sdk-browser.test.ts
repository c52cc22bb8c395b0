// End to end with the official MCP client SDK's OAuth support and real Chromium: a 401 from /mcp →
// discovery (protected-resource and AS metadata) → dynamic registration → authorize → demo sign-in →
// consent → code → token (RFC 9207 iss validated by the SDK) → an MCP call → refresh → revoke, for a public and a
// confidential client, and once for a client ID metadata document served locally (driven without
// the SDK there: the SDK accepts only https metadata-document URLs).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { auth, Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientMetadata, type OAuthClientProvider, type OAuthDiscoveryState, type StoredOAuthClientInformation, type StoredOAuthTokens } from '@modelcontextprotocol/client';
import { createTokenVerifier } from '../../src/auth-server/index.ts';
import { freePort, startTestService, type TestService } from '../support/service.ts';
import { launchBrowser, signInWithDemoGoogle } from '../support/browser.ts';
import { MemoryOAuthProvider } from '../support/memory-oauth-provider.ts';
import { pkcePair } from '../support/pkce.ts';

/** A fetch for the SDK that keeps a copy of every request it sends, to check what went over the wire. */
function recordingFetch() {
  const requests: Request[] = [];
  const recorder = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    requests.push(request.clone());
    return fetch(request);
  };
  return { fetch: recorder, requests };
}

const grantOf = async (request: Request) => new URLSearchParams(await request.clone().text()).get('grant_type');

describe('OAuth end to end with the MCP client SDK and Chromium', () => {
  let service: TestService;
  let browser: Browser;
  const domain = `e2e-${randomBytes(3).toString('hex')}.example`;

  before(async () => {
    service = await startTestService();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  /** Drives the browser from the authorization URL to the client's callback; returns the callback URL. */
  async function signInAndApprove(authorizationUrl: URL, callbackOrigin: string, email: string, onConsent?: (text: string) => void): Promise<URL> {
    const context = await browser.newContext();
    try {
      let callback: string | undefined;
      await context.route(`${callbackOrigin}/**`, (route) => {
        callback = route.request().url();
        return route.fulfill({ status: 200, contentType: 'text/plain', body: 'done' });
      });
      const page = await context.newPage();
      await page.goto(authorizationUrl.href);
      await signInWithDemoGoogle(page, email);
      await page.waitForURL(/\/oauth\/consent\?request=/);
      assert.match((await page.textContent('main')) ?? '', /Unverified application/);
      assert.match((await page.textContent('main')) ?? '', /this computer/, 'the loopback warning');
      onConsent?.((await page.textContent('main')) ?? '');
      await page.click('button[value=approve]');
      await page.waitForURL((url) => url.href.startsWith(callbackOrigin));
      assert.ok(callback, 'the browser reached the client callback');
      return new URL(callback);
    } finally {
      await context.close();
    }
  }

  async function fullFlow(metadata: Partial<OAuthClientMetadata>, email: string) {
    const serverUrl = `${service.baseUrl}/mcp`;
    const callbackOrigin = `http://127.0.0.1:${await freePort()}`;
    const provider = new MemoryOAuthProvider(`${callbackOrigin}/callback`, { client_name: 'E2E client', ...metadata });
    const recorder = recordingFetch();

    // Discovery from a 401: the transport's first request is refused, the SDK follows WWW-Authenticate.
    const firstTry = new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider, fetch: recorder.fetch });
    await assert.rejects(new Client({ name: 'e2e', version: '1.0.0' }).connect(firstTry), UnauthorizedError);
    assert.ok(provider.info?.client_id, 'registered dynamically');
    const authorizationUrl = provider.authorizationUrl;
    assert.ok(authorizationUrl);
    assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorizationUrl.searchParams.get('resource'), serverUrl);

    const callback = await signInAndApprove(authorizationUrl, callbackOrigin, email);
    assert.ok(callback.searchParams.get('code'));
    assert.equal(callback.searchParams.get('iss'), service.baseUrl);
    assert.equal(callback.searchParams.get('state'), authorizationUrl.searchParams.get('state'));
    // finishAuth validates iss (RFC 9207) before redeeming the code.
    await firstTry.finishAuth(callback.searchParams);
    const first = provider.saved;
    assert.ok(first?.access_token && first.refresh_token);

    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider, fetch: recorder.fetch }));
    const tools = await client.listTools();
    assert.ok(tools.tools.some((t) => t.name === 'list_meetings'), 'an authorized MCP call');
    await client.close();
    const verifier = createTokenVerifier(service.ctx);
    const call = await verifier.verify(first.access_token);
    assert.ok(call.ok);
    assert.equal(call.auth.clientId, provider.info?.client_id);

    // With tokens saved, auth() refreshes (rotation: a new refresh token).
    assert.equal(await auth(provider, { serverUrl, fetchFn: recorder.fetch }), 'AUTHORIZED');
    const second = provider.saved;
    assert.ok(second?.access_token && second.refresh_token);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.ok((await verifier.verify(second.access_token)).ok);

    // RFC 7009 revoke, authenticated the way the client registered.
    const body = new URLSearchParams({ token: second.refresh_token, token_type_hint: 'refresh_token' });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const secret = provider.info?.client_secret;
    if (secret) headers.authorization = `Basic ${btoa(`${provider.info?.client_id}:${secret}`)}`;
    else body.set('client_id', provider.info?.client_id ?? '');
    const revoked = await fetch(`${service.baseUrl}/oauth/revoke`, { method: 'POST', headers, body });
    assert.equal(revoked.status, 200);
    assert.equal((await createTokenVerifier(service.ctx).verify(second.access_token)).ok, false, 'revoked everywhere within the cache bound');

    // What the SDK sent to the token endpoint: the code exchange, then the refresh.
    const tokenRequests = recorder.requests.filter((r) => r.method === 'POST' && r.url === `${service.baseUrl}/oauth/token`);
    assert.deepEqual(await Promise.all(tokenRequests.map(grantOf)), ['authorization_code', 'refresh_token']);
    return { provider, tokenRequests };
  }

  test('a public client (none): discovery, registration, sign-in, consent, token, call, refresh, revoke', async () => {
    const { provider, tokenRequests } = await fullFlow({ token_endpoint_auth_method: 'none' }, `first@${domain}`);
    assert.equal(provider.info?.client_secret, undefined);
    for (const request of tokenRequests) {
      const body = new URLSearchParams(await request.clone().text());
      assert.equal(request.headers.get('authorization'), null, `${body.get('grant_type')}: a public client sends no credentials header`);
      assert.equal(body.get('client_id'), provider.info?.client_id, `${body.get('grant_type')}: the client_id in the body`);
    }
  });

  test('a confidential client (client_secret_basic): the same flow with the SDK’s Basic authentication', async () => {
    const { provider, tokenRequests } = await fullFlow({ token_endpoint_auth_method: 'client_secret_basic' }, `second@${domain}`);
    assert.match(provider.info?.client_secret ?? '', /^acs_/);
    // The server takes either secret method from a secret client (AS-60), so a working flow alone does not
    // show Basic was used: each token request carried the credentials in the header and not in the body.
    for (const request of tokenRequests) {
      const grant = await grantOf(request);
      const basic = /^Basic (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
      assert.ok(basic, `${grant}: no Authorization: Basic header`);
      assert.equal(Buffer.from(basic, 'base64').toString('utf8'), `${provider.info?.client_id}:${provider.info?.client_secret}`, `${grant}: the Basic credentials`);
      assert.equal(new URLSearchParams(await request.clone().text()).get('client_secret'), null, `${grant}: the secret is not also in the body`);
    }
    // The same refresh request without its header, or with a wrong secret in it, is refused before the
    // grant is looked at: the header is what authenticated the client.
    const refresh = tokenRequests[1]!;
    for (const authorization of [null, `Basic ${btoa(`${provider.info?.client_id}:acs_wrong`)}`]) {
      const headers = new Headers(refresh.headers);
      if (authorization) headers.set('authorization', authorization);
      else headers.delete('authorization');
      const replay = await fetch(refresh.url, { method: 'POST', headers, body: await refresh.clone().text() });
      assert.equal(replay.status, 401, `replayed with ${authorization ? 'a wrong secret' : 'no header'}`);
      assert.equal(((await replay.json()) as { error: string }).error, 'invalid_client');
    }
  });

  test('a client ID metadata document served from a local server: sign-in, consent showing its host, token, refresh, revoke', async () => {
    const docs = createServer((req, res) => {
      res.writeHead(req.url === '/client.json' ? 200 : 404, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
      res.end(req.url === '/client.json' ? document : '');
    });
    await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
    const clientId = `http://localhost:${(docs.address() as AddressInfo).port}/client.json`;
    const callbackOrigin = `http://127.0.0.1:${await freePort()}`;
    const document = JSON.stringify({ client_id: clientId, client_name: 'Metadata document client', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' });
    const cimd = await startTestService({ env: { CLIENT_METADATA_ALLOW_HTTP_LOCALHOST: 'true' } });
    try {
      const { verifier, challenge } = pkcePair();
      const redirectUri = `${callbackOrigin}/callback`;
      const authorizationUrl = new URL(`${cimd.baseUrl}/oauth/authorize`);
      for (const [k, v] of Object.entries({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: 'cimd', scope: 'mcp', resource: `${cimd.baseUrl}/mcp` })) {
        authorizationUrl.searchParams.set(k, v);
      }
      let consentText = '';
      const callback = await signInAndApprove(authorizationUrl, callbackOrigin, `cimd@${domain}`, (t) => (consentText = t));
      assert.match(consentText, /Metadata document client/);
      assert.ok(consentText.includes(new URL(clientId).host), 'the consent page names the document host');
      assert.equal(callback.searchParams.get('iss'), cimd.baseUrl);
      const token = async (fields: Record<string, string>) => {
        const res = await fetch(`${cimd.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: clientId, ...fields }) });
        return { status: res.status, body: (await res.json()) as Record<string, string> };
      };
      const first = await token({ grant_type: 'authorization_code', code: callback.searchParams.get('code') ?? '', code_verifier: verifier, redirect_uri: redirectUri });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.ok((await createTokenVerifier(cimd.ctx).verify(first.body.access_token ?? '')).ok);
      const second = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token ?? '' });
      assert.equal(second.status, 200);
      const revoked = await fetch(`${cimd.baseUrl}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: clientId, token: second.body.refresh_token ?? '' }) });
      assert.equal(revoked.status, 200);
      assert.equal((await createTokenVerifier(cimd.ctx).verify(second.body.access_token ?? '')).ok, false);
    } finally {
      await cimd.close();
      await new Promise<void>((resolve) => docs.close(() => resolve()));
    }
  });
});
