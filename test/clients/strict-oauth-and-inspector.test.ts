// A strict OAuth client (oauth4webapi, panva's spec-checking client) runs discovery from the 401,
// registration, the authorization response (RFC 9207 iss), the token, refresh and revocation
// responses through its validators; the MCP Inspector CLI then uses the bearer token it got, in
// both protocol eras, until the token is revoked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import * as oauth from 'oauth4webapi';
import { createTokenVerifier } from '../../src/auth-server/index.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { rpcMessageIn } from '../support/mcp-message.ts';
import { approveHeadless, mcpStatus } from './support/headless.ts';

const run = promisify(execFile);
const INSPECTOR = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')), 'clients/launcher/build/index.js');
/** The CLI keeps a catalog under ~/.mcp-inspector: give it a throwaway home. */
const INSPECTOR_HOME = mkdtempSync(join(tmpdir(), 'aas-inspector-'));
const REDIRECT = 'http://127.0.0.1:8977/callback';
const insecure = { [oauth.allowInsecureRequests]: true }; // loopback http test server only

describe('strict OAuth client (oauth4webapi) and the MCP Inspector CLI', () => {
  let service: TestService;
  let mcpUrl: string;
  const domain = `strict-${randomBytes(3).toString('hex')}.example`;
  before(async () => {
    service = await startTestService();
    mcpUrl = `${service.baseUrl}/mcp`;
  });
  after(async () => service?.close());

  /** Discovery from the 401 → metadata → registration → authorize → consent → token, every response validated. */
  async function strictFlow(email: string) {
    // A stale token gets the 401 and its Bearer challenge, which oauth4webapi parses (RFC 6750 §3).
    const refused = await oauth
      .protectedResourceRequest('aat_stale', 'POST', new URL(mcpUrl), new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }), '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', insecure)
      .then(() => undefined, (error: unknown) => error);
    assert.ok(refused instanceof oauth.WWWAuthenticateChallengeError);
    assert.equal(refused.status, 401);
    const challenge = refused.cause.find((c) => c.scheme === 'bearer');
    assert.ok(challenge, 'RFC 6750 Bearer challenge');
    assert.equal(challenge.parameters.scope, 'mcp');
    assert.equal(challenge.parameters.error, 'invalid_token');
    const resourceMetadataUrl = challenge.parameters.resource_metadata;
    assert.equal(resourceMetadataUrl, `${service.baseUrl}/.well-known/oauth-protected-resource/mcp`);

    // RFC 9728 §3.3: the resource in the document must equal the resource identifier.
    const rs = await oauth.processResourceDiscoveryResponse(new URL(mcpUrl), await oauth.resourceDiscoveryRequest(new URL(mcpUrl), insecure));
    const issuer = new URL(rs.authorization_servers?.[0] ?? '');
    // RFC 8414 §3.3: the issuer in the document must equal the one we asked for, byte for byte (P6).
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    assert.equal(as.issuer, service.baseUrl);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);

    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { client_name: 'Strict client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }, insecure),
    );
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint ?? '');
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'mcp', state, resource: mcpUrl, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })) {
      authorizationUrl.searchParams.set(k, v);
    }
    const { callback } = await approveHeadless(authorizationUrl, email);

    // RFC 9207: a response from another issuer, or without iss, is refused by the strict client.
    const forged = new URL(callback);
    forged.searchParams.set('iss', `${service.baseUrl}/`);
    assert.throws(() => oauth.validateAuthResponse(as, client, forged, state), /iss/);
    forged.searchParams.delete('iss');
    assert.throws(() => oauth.validateAuthResponse(as, client, forged, state), /iss/);
    const params = oauth.validateAuthResponse(as, client, callback, state);

    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, { additionalParameters: { resource: mcpUrl }, ...insecure }));
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.scope, 'mcp', 'the scope asked for; a refresh token comes without offline_access (P10)');
    assert.ok(tokens.expires_in && tokens.expires_in > 0 && tokens.expires_in <= 3600);
    assert.ok(tokens.refresh_token);
    return { as, client, tokens };
  }

  async function refresh(as: oauth.AuthorizationServer, client: oauth.Client, refreshToken: string) {
    const tokens = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, { additionalParameters: { resource: mcpUrl }, ...insecure }));
    assert.ok(tokens.refresh_token && tokens.refresh_token !== refreshToken, 'rotation');
    return tokens;
  }

  async function revokeGrant(as: oauth.AuthorizationServer, client: oauth.Client, refreshToken: string) {
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshToken, insecure));
  }

  test('oauth4webapi: metadata, registration, iss, token, MCP calls, refresh and revocation responses validate', async () => {
    const { as, client, tokens } = await strictFlow(`strict@${domain}`);
    const call = async (token: string, method: string, params: Record<string, unknown>) => {
      const res = await oauth.protectedResourceRequest(token, 'POST', new URL(mcpUrl), new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }), JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), insecure);
      assert.equal(res.status, 200);
      // The SDK may answer as an SSE stream (the client accepts both).
      return rpcMessageIn(await res.text(), res.headers.get('content-type')) as { result: { tools?: unknown[]; isError?: boolean } };
    };
    assert.equal((await call(tokens.access_token, 'tools/list', {})).result.tools?.length, 12);
    assert.notEqual((await call(tokens.access_token, 'tools/call', { name: 'get_teams', arguments: {} })).result.isError, true);
    const second = await refresh(as, client, tokens.refresh_token ?? '');
    assert.ok((await createTokenVerifier(service.ctx).verify(second.access_token)).ok);
    await revokeGrant(as, client, second.refresh_token ?? '');
    assert.equal(await mcpStatus(mcpUrl, second.access_token), 401);
    // The rotated-away refresh token is dead too: invalid_grant, the code clients restart authorization on (P9).
    await assert.rejects(refresh(as, client, second.refresh_token ?? ''), (e: unknown) => e instanceof oauth.ResponseBodyError && e.error === 'invalid_grant');
  });

  const inspector = (era: 'legacy' | 'modern', token: string, ...args: string[]) =>
    run(process.execPath, [INSPECTOR, '--cli', mcpUrl, '--transport', 'http', '--protocol-era', era, '--header', `Authorization: Bearer ${token}`, ...args], { timeout: 30_000, env: { ...process.env, NO_COLOR: '1', HOME: INSPECTOR_HOME } });

  for (const era of ['legacy', 'modern'] as const) {
    test(`MCP Inspector CLI --protocol-era ${era} with a bearer token: tools/list, tools/call, refresh, 401 after revoke`, async () => {
      const { as, client, tokens } = await strictFlow(`inspector-${era}@${domain}`);
      const listed = JSON.parse((await inspector(era, tokens.access_token, '--method', 'tools/list')).stdout) as { tools: { name: string }[] };
      assert.equal(listed.tools.length, 12);
      const called = JSON.parse((await inspector(era, tokens.access_token, '--method', 'tools/call', '--tool-name', 'get_deals', '--tool-arg', 'status=all')).stdout) as { isError?: boolean; structuredContent?: { deals: unknown[] } };
      assert.notEqual(called.isError, true, JSON.stringify(called));
      assert.ok(Array.isArray(called.structuredContent?.deals));

      const second = await refresh(as, client, tokens.refresh_token ?? '');
      await revokeGrant(as, client, second.refresh_token ?? '');
      // second.access_token never went through /mcp, so no verified-token cache can answer for it.
      const refused = await inspector(era, second.access_token, '--method', 'tools/list').then(
        () => undefined,
        (error: unknown) => error as { code: number; stderr: string; stdout: string },
      );
      assert.ok(refused, 'the Inspector fails with a revoked token');
      assert.notEqual(refused.code, 0);
      // The CLI's reaction to the 401: it would start interactive OAuth, which it refuses without a TTY.
      assert.match(`${refused.stderr}${refused.stdout}`, /auth_required|401|unauthori[sz]ed|invalid_token/i);
    });
  }
});
