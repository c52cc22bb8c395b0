// Generated requests for the authorization server's endpoints and the oracle each answer must
// satisfy: never a 5xx, and always the protocol's own error format — RFC 6749 §5.2 JSON for
// token, RFC 7591 §3.2.2 for register, RFC 7009 for revoke, and for authorize either a redirect
// (carrying iss, RFC 9207) or a local HTML page, never a raw error.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Fixture } from './fixture.ts';
import type { FuzzRequest, FuzzResponse } from './http.ts';
import { anyJson, anyString, contentType, headerValue, query, rawJsonBody, rawQuery } from './values.ts';

export type Endpoint = {
  name: string;
  arbitrary(f: Fixture): fc.Arbitrary<FuzzRequest>;
  check(f: Fixture, req: FuzzRequest, res: FuzzResponse): void;
};

const OAUTH_ERRORS = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'invalid_target', 'invalid_token', 'temporarily_unavailable', 'slow_down', 'too_many_requests', 'rate_limited', 'invalid_redirect_uri', 'invalid_client_metadata', 'unsupported_token_type', 'server_error']);

export function header(res: FuzzResponse, name: string): string {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

/** An RFC 6749 §5.2 error body (or a non-JSON answer where the protocol has none, like 413 from a proxy-style limit). */
export function assertOAuthError(res: FuzzResponse, where: string) {
  assert.match(header(res, 'content-type'), /application\/json/, `${where}: ${res.status} is not JSON`);
  const body = JSON.parse(res.body) as { error?: unknown; error_description?: unknown };
  assert.equal(typeof body.error, 'string', `${where}: no error code`);
  assert.ok(OAUTH_ERRORS.has(body.error as string), `${where}: unknown error code ${String(body.error)}`);
  if (body.error_description !== undefined) {
    assert.equal(typeof body.error_description, 'string');
    // RFC 6749 §5.2: error_description is ASCII without " and \ (AS-41).
    assert.match(body.error_description as string, /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/, `${where}: error_description is not restricted ASCII`);
  }
}

export function assertNo5xx(res: FuzzResponse, where: string) {
  assert.ok(res.status < 500, `${where}: HTTP ${res.status} ${res.body.slice(0, 300)}`);
  assert.doesNotMatch(res.body, /\bat [\w.<>]+ \(.*:\d+:\d+\)|node_modules|SQLITE_|syntax error at or near|violates .* constraint/i, `${where}: internal details in the answer`);
}

const formBody = (pairs: [string, string][]) => query(pairs);
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

export const register: Endpoint = {
  name: 'POST /oauth/register',
  arbitrary: () => {
    const uri = fc.oneof(pick(['https://client.example/cb', 'http://127.0.0.1/cb', 'http://localhost:3000/cb', 'cursor://anysphere.cursor-mcp/oauth/callback', 'http://evil.example/cb', 'https://x.example/cb#frag', 'myapp:/cb', 'https://client.example/cb?x=1']), anyString);
    // Mostly valid values with the odd broken one, so requests get past the first check.
    const mostly = <T>(valid: fc.Arbitrary<T>, broken: fc.Arbitrary<unknown>) => fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: broken });
    const goodUri = pick(['https://client.example/cb', 'http://127.0.0.1/cb', 'http://localhost:3000/cb', 'http://[::1]:8080/cb']);
    const metadata = fc.record(
      {
        client_name: mostly(pick(['Claude', 'Cursor', 'VS Code']), fc.oneof(anyString, anyJson)),
        redirect_uris: mostly(fc.array(goodUri, { minLength: 1, maxLength: 3 }), fc.oneof(fc.array(uri, { maxLength: 12 }), anyJson)),
        token_endpoint_auth_method: mostly(pick(['none', 'client_secret_basic', 'client_secret_post']), fc.oneof(pick(['private_key_jwt', 'tls_client_auth']), anyJson)),
        grant_types: mostly(pick([['authorization_code'], ['authorization_code', 'refresh_token']]), fc.oneof(fc.array(pick(['authorization_code', 'refresh_token', 'client_credentials', 'implicit', 'password']), { maxLength: 4 }), anyJson)),
        response_types: mostly(pick([['code']]), fc.oneof(fc.array(pick(['code', 'token', 'id_token']), { maxLength: 3 }), anyJson)),
        scope: mostly(pick(['mcp', 'mcp offline_access', 'openid email profile']), anyString),
        client_id: anyString,
        client_secret: anyString,
        logo_uri: mostly(pick(['https://client.example/logo.png']), fc.oneof(uri, anyJson)),
        client_uri: uri,
        application_type: mostly(pick(['web', 'native']), anyString),
        trusted: anyJson,
        skip_consent: anyJson,
      },
      { requiredKeys: ['redirect_uris'] },
    );
    const body = fc.oneof(
      { weight: 6, arbitrary: fc.tuple(metadata, fc.dictionary(anyString, anyJson, { maxKeys: 3 })).map(([m, extra]) => JSON.stringify({ ...extra, ...m })) },
      { weight: 2, arbitrary: anyJson.map((v) => JSON.stringify(v) ?? 'null') },
      { weight: 2, arbitrary: rawJsonBody },
    );
    return fc.record({ body, type: contentType, origin: fc.option(headerValue) }).map(({ body, type, origin }) => ({
      method: 'POST',
      path: '/oauth/register',
      headers: { ...(type !== undefined ? { 'content-type': type } : {}), ...(origin ? { origin } : {}) },
      body,
    }));
  },
  check: (_f, _req, res) => {
    assertNo5xx(res, 'register');
    if (res.status === 201) {
      const body = JSON.parse(res.body) as Record<string, unknown>;
      assert.equal(typeof body.client_id, 'string');
      assert.ok(Array.isArray(body.redirect_uris));
      for (const forbidden of ['trusted', 'skip_consent', 'first_party']) assert.equal(body[forbidden], undefined, `register echoed ${forbidden}`);
      return;
    }
    assertOAuthError(res, `register ${res.status}`);
    assert.match(header(res, 'cache-control'), /no-store/);
  },
};

function tokenLike(f: Fixture): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: pick([...f.refreshTokens.slice(0, 3), ...f.tokens.slice(0, 3)]) },
    { weight: 3, arbitrary: anyString },
  );
}

function clientCredentials(f: Fixture) {
  const ids = [f.publicClient.client_id, f.secretClient.client_id];
  return fc.record({
    clientId: fc.option(fc.oneof(pick(ids), anyString)),
    secret: fc.option(fc.oneof(pick([f.secretClient.client_secret ?? '']), anyString)),
    basic: fc.option(fc.oneof(
      pick(ids).map((id) => `Basic ${Buffer.from(`${id}:${f.secretClient.client_secret}`).toString('base64')}`),
      anyString.filter((s) => s.length < 4000).map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
      headerValue,
    )),
  });
}

export const token: Endpoint = {
  name: 'POST /oauth/token',
  arbitrary: (f) => {
    const names = ['grant_type', 'code', 'code_verifier', 'redirect_uri', 'refresh_token', 'scope', 'resource', 'client_id', 'client_secret', 'client_assertion'];
    const value = (f: Fixture) => fc.oneof(pick(['authorization_code', 'refresh_token', 'client_credentials', 'password', 'urn:ietf:params:oauth:grant-type:device_code', 'mcp', `${f.base}/mcp`, `${f.base}/mcp/`, 'https://other.example/mcp']), tokenLike(f), anyString);
    const pairs = fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: pick(names) }, { weight: 1, arbitrary: anyString }), value(f)), { maxLength: 9 });
    const body = fc.oneof({ weight: 8, arbitrary: pairs.map(formBody) }, { weight: 1, arbitrary: rawJsonBody }, { weight: 1, arbitrary: rawQuery });
    return fc.record({ body, type: fc.oneof({ weight: 6, arbitrary: fc.constant('application/x-www-form-urlencoded') }, { weight: 1, arbitrary: contentType }), creds: clientCredentials(f) }).map(({ body, type, creds }) => {
      const extra = [creds.clientId !== null ? `client_id=${encodeURIComponent(creds.clientId.toWellFormed())}` : '', creds.secret !== null ? `client_secret=${encodeURIComponent(creds.secret.toWellFormed())}` : ''].filter(Boolean);
      return {
        method: 'POST',
        path: '/oauth/token',
        headers: { ...(type !== undefined ? { 'content-type': type } : {}), ...(creds.basic !== null ? { authorization: creds.basic } : {}) },
        body: [body, ...extra].filter(Boolean).join('&'),
      };
    });
  },
  check: (_f, req, res) => {
    assertNo5xx(res, 'token');
    assert.match(header(res, 'cache-control'), /no-store/, 'token answers are never cached (AS-42)');
    if (res.status === 200) {
      const body = JSON.parse(res.body) as Record<string, unknown>;
      assert.equal(body.token_type, 'Bearer');
      assert.equal(typeof body.access_token, 'string');
      return;
    }
    assertOAuthError(res, `token ${res.status}`);
    // AS-38: a failed Basic authentication is 401 with WWW-Authenticate: Basic.
    if (res.status === 401 && /^basic /i.test(req.headers.authorization ?? '') && JSON.parse(res.body).error === 'invalid_client') {
      assert.match(header(res, 'www-authenticate'), /^Basic /);
    }
  },
};

export const revoke: Endpoint = {
  name: 'POST /oauth/revoke',
  arbitrary: (f) => {
    const pairs = fc.array(fc.tuple(pick(['token', 'token_type_hint', 'client_id', 'client_secret', 'x']), fc.oneof(tokenLike(f), pick(['access_token', 'refresh_token', 'bogus']), anyString)), { maxLength: 6 });
    return fc.record({ pairs, type: fc.oneof({ weight: 5, arbitrary: fc.constant('application/x-www-form-urlencoded') }, { weight: 1, arbitrary: contentType }), creds: clientCredentials(f) }).map(({ pairs, type, creds }) => ({
      method: 'POST',
      path: '/oauth/revoke',
      headers: { ...(type !== undefined ? { 'content-type': type } : {}), ...(creds.basic !== null ? { authorization: creds.basic } : {}) },
      // Fuzzing must not revoke the fixture's own live tokens: those are replaced by look-alikes.
      body: formBody([...pairs.map(([k, v]): [string, string] => [k, f.tokens.includes(v) || f.refreshTokens.includes(v) ? `${v.slice(0, 4)}${'Z'.repeat(43)}` : v]), ...(creds.clientId !== null ? [['client_id', creds.clientId] as [string, string]] : [])]),
    }));
  },
  check: (_f, _req, res) => {
    assertNo5xx(res, 'revoke');
    if (res.status === 200) return;
    assertOAuthError(res, `revoke ${res.status}`);
  },
};

export const authorize: Endpoint = {
  name: 'GET /oauth/authorize',
  arbitrary: (f) => {
    const client = f.publicClient;
    // A valid request (from a signed-in browser, half the time) with a few parameters broken,
    // dropped, repeated or added: so requests reach consent, redirects and their error paths.
    const valid: [string, string][] = [
      ['response_type', 'code'], ['client_id', client.client_id], ['redirect_uri', client.redirect_uris[0]!], ['code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'],
      ['code_challenge_method', 'S256'], ['state', 'st'], ['scope', 'mcp'], ['resource', `${f.base}/mcp`],
    ];
    const names = [...valid.map(([k]) => k), 'prompt', 'nonce', 'request', 'request_uri'];
    const value = fc.oneof(pick(['code', 'token', 'S256', 'plain', 'mcp', 'openid offline_access', 'admin', f.secretClient.client_id, 'http://127.0.0.1:9/callback', 'https://evil.example/cb', `${f.base}/mcp/`, 'https://other.example/mcp', 'A'.repeat(43), 'st']), anyString);
    const edit = fc.oneof(
      fc.record({ op: fc.constant('set' as const), name: pick(names), value }),
      fc.record({ op: fc.constant('drop' as const), name: pick(names), value: fc.constant('') }),
      fc.record({ op: fc.constant('repeat' as const), name: pick(names), value }),
      fc.record({ op: fc.constant('add' as const), name: anyString, value }),
    );
    const pairs = fc.array(edit, { maxLength: 3 }).map((edits) => {
      let out = [...valid];
      for (const e of edits) {
        if (e.op === 'set') out = [...out.filter(([k]) => k !== e.name), [e.name, e.value]];
        else if (e.op === 'drop') out = out.filter(([k]) => k !== e.name);
        else out = [...out, [e.name, e.value]];
      }
      return out;
    });
    return fc
      .record({ q: fc.oneof({ weight: 12, arbitrary: pairs.map(query) }, { weight: 1, arbitrary: rawQuery }), method: fc.constantFrom('GET', 'GET', 'GET', 'GET', 'POST', 'HEAD'), origin: fc.option(headerValue, { freq: 8 }), signedIn: fc.boolean() })
      .map(({ q, method, origin, signedIn }) => ({
        method,
        path: `/oauth/authorize?${q}`,
        headers: { ...(origin !== null && origin !== undefined ? { origin } : {}), ...(signedIn ? { cookie: f.cookie } : {}) },
      }));
  },
  check: (f, req, res) => {
    assertNo5xx(res, 'authorize');
    assert.equal(header(res, 'access-control-allow-origin'), '', 'no CORS on /oauth/authorize (AS-9)');
    if (res.status >= 300 && res.status < 400) {
      const location = new URL(header(res, 'location'), f.base);
      if (location.origin !== f.base) {
        // Only to a registered redirect URI, and with iss (RFC 9207, AS-26).
        // AS-2: a loopback redirect URI matches on any port.
        const key = (u: URL) => `${u.protocol}//${u.hostname}${['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) ? '' : `:${u.port}`}${u.pathname}`;
        const registered = [f.publicClient.redirect_uris[0]!, f.secretClient.redirect_uris[0]!].map((r) => key(new URL(r)));
        assert.ok(registered.includes(key(location)), `redirected off-site to ${location}`);
        assert.equal(location.searchParams.get('iss'), f.base);
      }
      return;
    }
    if (req.method === 'HEAD' || res.status === 404 || res.status === 405) return;
    assert.match(header(res, 'content-type'), /text\/html/, `authorize ${res.status} is not a page`);
    assert.match(header(res, 'content-security-policy'), /frame-ancestors 'none'/);
  },
};
