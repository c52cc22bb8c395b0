// The redirect URIs and registration metadata real MCP clients send (the client table in
// oauth-security.md), each through registration → authorize → consent → token with the
// client's own token-endpoint authentication. Requests go through app.request() (no socket).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { authorizeAndApprove, BASE_URL, consentForm, form, json, pkce, signedInBrowser, startHarness, type Harness, type RegisteredClient } from '../auth-server/harness.ts';

type Shape = {
  name: string;
  /** The registration request as the client sends it (table: "What real MCP clients send"). */
  metadata: Record<string, unknown>;
  /** The redirect_uri the client then uses at /oauth/authorize. */
  uses: string;
};

const SHAPES: Shape[] = [
  {
    name: 'Claude Code (port-less localhost registration, any port at authorize)',
    metadata: { client_name: 'Claude Code', redirect_uris: ['http://localhost/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] },
    uses: 'http://localhost:53999/callback',
  },
  {
    name: 'claude.ai / Claude Desktop connector (client_secret_post, scope-less)',
    metadata: { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], token_endpoint_auth_method: 'client_secret_post', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
    uses: 'https://claude.ai/api/mcp/auth_callback',
  },
  {
    name: 'ChatGPT (per-connector https callback, public)',
    metadata: { client_name: 'ChatGPT', redirect_uris: ['https://chatgpt.com/connector/oauth/c_6f1d2e3a4b5c'], token_endpoint_auth_method: 'none' },
    uses: 'https://chatgpt.com/connector/oauth/c_6f1d2e3a4b5c',
  },
  {
    name: 'VS Code (fixed loopback port 33418)',
    metadata: { client_name: 'Visual Studio Code', redirect_uris: ['https://insiders.vscode.dev/redirect', 'https://vscode.dev/redirect', 'http://127.0.0.1/', 'http://127.0.0.1:33418/'], token_endpoint_auth_method: 'none' },
    uses: 'http://127.0.0.1:33418/',
  },
  {
    name: 'VS Code (random loopback port when 33418 is busy)',
    metadata: { client_name: 'Visual Studio Code', redirect_uris: ['https://vscode.dev/redirect', 'http://127.0.0.1/', 'http://127.0.0.1:33418/'], token_endpoint_auth_method: 'none' },
    uses: 'http://127.0.0.1:41234/',
  },
  {
    name: 'VS Code for the Web (https://vscode.dev/redirect)',
    metadata: { client_name: 'Visual Studio Code', redirect_uris: ['https://vscode.dev/redirect', 'http://127.0.0.1:33418/'], token_endpoint_auth_method: 'none' },
    uses: 'https://vscode.dev/redirect',
  },
  {
    name: 'Cursor (its loopback fallback, registered next to cursor:// with application_type web)',
    metadata: { client_name: 'Cursor', redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback', 'http://localhost/oauth/callback'], token_endpoint_auth_method: 'none', application_type: 'web' },
    uses: 'http://localhost:61000/oauth/callback',
  },
  {
    name: 'mcp-remote (localhost:<port>/oauth/callback)',
    metadata: { client_name: 'MCP CLI Proxy', redirect_uris: ['http://localhost:3334/oauth/callback'], token_endpoint_auth_method: 'none', software_id: '2e6dc280-f3c3-4e01-99a7-8181dbd1d23d' },
    uses: 'http://localhost:3334/oauth/callback',
  },
];

describe('redirect URI shapes of real MCP clients', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('sqlite');
  });
  after(async () => h.close());

  async function register(metadata: Record<string, unknown>) {
    const res = await h.request('/oauth/register', json(metadata));
    const body = (await res.json()) as RegisteredClient & { token_endpoint_auth_method: string; scope: string };
    return { res, body };
  }

  for (const shape of SHAPES) {
    it(`${shape.name}: registers, authorizes with ${shape.uses}, and redeems the code`, async () => {
      const { res, body } = await register(shape.metadata);
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.deepEqual(body.redirect_uris, shape.metadata.redirect_uris, 'stored verbatim');
      assert.equal(body.token_endpoint_auth_method, shape.metadata.token_endpoint_auth_method, 'P1/P13: the negotiated method is returned');
      assert.equal(body.scope, 'mcp offline_access', 'P11: scope-less registration defaults');

      const browser = await signedInBrowser(h);
      const { code, verifier, redirect } = await authorizeAndApprove(h, browser, body, { redirect_uri: shape.uses });
      assert.equal(`${redirect.origin}${redirect.pathname}`, shape.uses, 'redirected to exactly the URI the client used');
      assert.equal(redirect.searchParams.get('iss'), BASE_URL, 'RFC 9207 iss');
      assert.equal(redirect.searchParams.get('state'), 'st-1');

      const fields: Record<string, string> = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: shape.uses, client_id: body.client_id };
      if (body.client_secret) fields.client_secret = body.client_secret; // client_secret_post
      const token = await h.request('/oauth/token', form(fields));
      const tokens = (await token.json()) as Record<string, string>;
      assert.equal(token.status, 200, JSON.stringify(tokens));
      assert.match(tokens.access_token ?? '', /^aat_/);
      assert.match(tokens.refresh_token ?? '', /^art_/, 'P10: a refresh token without asking for offline_access');
    });
  }

  it('claude.ai: the secret is checked when posted in the body, and a wrong one is invalid_client', async () => {
    const { body } = await register(SHAPES[1]!.metadata);
    assert.match(body.client_secret ?? '', /^acs_/);
    const browser = await signedInBrowser(h);
    const { code, verifier } = await authorizeAndApprove(h, browser, body);
    const wrong = await h.request('/oauth/token', form({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: body.redirect_uris[0] ?? '', client_id: body.client_id, client_secret: 'acs_wrong' }));
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { error: string }).error, 'invalid_client');
  });

  it('Claude Code: a different path or the 127.0.0.1 literal is not the port-less localhost registration', async () => {
    const { body } = await register(SHAPES[0]!.metadata);
    const browser = await signedInBrowser(h);
    const { challenge } = pkce();
    for (const bad of ['http://localhost:53999/oauth/callback', 'http://127.0.0.1:53999/callback', 'https://localhost:53999/callback']) {
      const q = new URLSearchParams({ response_type: 'code', client_id: body.client_id, redirect_uri: bad, code_challenge: challenge, code_challenge_method: 'S256', scope: 'mcp' });
      const res = await browser.get(`/oauth/authorize?${q}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.headers.get('location'), null, `${bad}: never redirects`);
    }
  });

  it('ChatGPT: another connector id is not the registered one (exact match, no allowlist by host)', async () => {
    const { body } = await register(SHAPES[2]!.metadata);
    const browser = await signedInBrowser(h);
    const { challenge } = pkce();
    const q = new URLSearchParams({ response_type: 'code', client_id: body.client_id, redirect_uri: 'https://chatgpt.com/connector/oauth/c_other', code_challenge: challenge, code_challenge_method: 'S256', scope: 'mcp' });
    assert.equal((await browser.get(`/oauth/authorize?${q}`)).status, 400);
  });

  it('Cursor policy (P3): its cursor:// callback is followed, with the consent warning for a program on this computer', async () => {
    const cursor = 'cursor://anysphere.cursor-mcp/oauth/callback';
    const { res, body } = await register({ client_name: 'Cursor', redirect_uris: [cursor, 'https://www.cursor.com/agents/mcp/oauth/callback', 'http://localhost:8787/callback'], token_endpoint_auth_method: 'none', application_type: 'web' });
    assert.equal(res.status, 201, 'P4: application_type web with a private-use scheme is not a registration error');
    const browser = await signedInBrowser(h);
    const { verifier, challenge } = pkce();
    const q = new URLSearchParams({ response_type: 'code', client_id: body.client_id, redirect_uri: cursor, code_challenge: challenge, code_challenge_method: 'S256', scope: 'mcp', state: 's' });
    const page = await browser.get(`/oauth/authorize?${q}`);
    assert.equal(page.status, 200, 'the consent page');
    const html = await page.text();
    assert.match(html, /this computer/, 'the warning shown for loopback redirects');
    assert.match(html, /cursor:\/\/anysphere\.cursor-mcp/);
    // Chromium applies form-action to the redirect after the POST: the scheme must be allowed (scheme-source).
    assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self' cursor:(;| )/);
    const approved = await browser.post('/oauth/consent', { ...consentForm(html), decision: 'approve' });
    assert.equal(approved.status, 303);
    const location = new URL(approved.headers.get('location') ?? '');
    assert.equal(`${location.protocol}//${location.host}${location.pathname}`, cursor);
    assert.equal(location.searchParams.get('iss'), BASE_URL);
    assert.equal(location.searchParams.get('state'), 's');
    const token = await h.request('/oauth/token', form({ grant_type: 'authorization_code', code: location.searchParams.get('code') ?? '', code_verifier: verifier, redirect_uri: cursor, client_id: body.client_id }));
    assert.equal(token.status, 200);
  });

  it('Cursor policy (P3): only that exact URI — other cursor:// paths and other private-use schemes are stored but refused with a local page', async () => {
    const others = ['cursor://anysphere.cursor-mcp/oauth/other', 'cursor://evil.example/oauth/callback', 'vscode://vscode.github-authentication/did-authenticate', 'com.example.app:/callback'];
    const { res, body } = await register({ client_name: 'Private schemes', redirect_uris: others, token_endpoint_auth_method: 'none' });
    assert.equal(res.status, 201, 'stored (AS-6)');
    const browser = await signedInBrowser(h);
    const { challenge } = pkce();
    for (const uri of others) {
      const q = new URLSearchParams({ response_type: 'code', client_id: body.client_id, redirect_uri: uri, code_challenge: challenge, code_challenge_method: 'S256', scope: 'mcp', state: 's' });
      const page = await browser.get(`/oauth/authorize?${q}`);
      assert.equal(page.status, 400, uri);
      assert.equal(page.headers.get('location'), null, `${uri}: never redirected`);
      assert.match(await page.text(), /does not redirect to/);
    }
  });
});
