// Secrets hygiene: a whole flow (registration, demo sign-in, consent, code, token, refresh, MCP call,
// revocation, and a few failures) runs with every log line captured at trace level, and with every
// secret that crossed the wire recorded on the way — including the upstream identity provider's
// code and tokens, seen by wrapping the process's fetch (openid-client calls the demo IdP with
// it). None may appear in any log line, nor in clear in the database; SSO client secrets are
// sealed at rest.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { startTestService, type TestService } from '../support/service.ts';
import { runCli } from '../support/cli.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { CACHE_MS } from '../../src/auth-server/verify.ts';
import { openSecret, ssoSecretContext } from '../../src/crypto/secret-box.ts';
import { authorizeCode, browserFor, exchangeCode, mcpRequest, refreshTokens, registerClient, revokeToken, tokenRequest, type Tokens } from './support/oauth-flow.ts';
import { pkcePair } from '../support/pkce.ts';
import { rpcMessage } from '../support/mcp-message.ts';

const SECRET_FIELDS = new Set(['access_token', 'refresh_token', 'id_token', 'client_secret', 'registration_access_token', 'code', 'device_code']);

/** Everything secret seen in responses: JSON secret fields, Set-Cookie values, code/state in redirects. */
class SecretRecorder {
  readonly secrets = new Map<string, string>();
  add(label: string, value: string | null | undefined) {
    if (value && value.length >= 12) this.secrets.set(value, label);
  }
  async observe(url: string, res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      this.add(`cookie ${pair.slice(0, pair.indexOf('='))} from ${new URL(url).pathname}`, pair.slice(pair.indexOf('=') + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      const target = new URL(location, url);
      for (const name of ['code', 'state']) this.add(`${name} in redirect to ${target.pathname}`, target.searchParams.get(name));
    }
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      const body = await res.clone().json().catch(() => null);
      if (body && typeof body === 'object') {
        for (const [k, v] of Object.entries(body as Record<string, unknown>)) if (SECRET_FIELDS.has(k) && typeof v === 'string') this.add(`${k} from ${new URL(url).pathname}`, v);
      }
    }
  }
}

describe('secrets hygiene', () => {
  const lines: string[] = [];
  const recorder = new SecretRecorder();
  let service: TestService;
  const realFetch = globalThis.fetch;

  before(async () => {
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    service = await startTestService({ logger: pino({ level: 'trace' }, sink) });
    await seedDemo(service.ctx.store, { meetings: 40, documents: 10, appUrl: service.ctx.config.appUrl });
    // Both the test's requests and the service's own upstream calls (same process) pass here.
    globalThis.fetch = async (input, init) => {
      const res = await realFetch(input, init);
      await recorder.observe(input instanceof Request ? input.url : String(input), res);
      return res;
    };
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await service?.close();
  });

  it('logs no token, code, secret or cookie value during a whole flow', async () => {
    const base = service.baseUrl;
    // A confidential client (secret + registration access token) and a public one.
    const confidential = await registerClient(base, { token_endpoint_auth_method: 'client_secret_post' });
    const open = await registerClient(base);
    assert.ok(confidential.client_secret && confidential.registration_access_token);

    const jar = await browserFor(base, 'mia.member@northwind.example');
    for (const value of jar.cookies.values()) recorder.add('browser cookie', value);
    const tokens: Tokens[] = [];
    for (const client of [confidential, open]) {
      const { verifier, challenge } = pkcePair();
      const { code } = await authorizeCode(base, jar, client, challenge);
      const res = await exchangeCode(base, client, code, verifier);
      assert.equal(res.status, 200);
      const pair = (await res.json()) as Tokens;
      const refreshed = await refreshTokens(base, client, pair.refresh_token);
      assert.equal(refreshed.status, 200);
      tokens.push(pair, (await refreshed.json()) as Tokens);
      // Failures that log: a replayed code, a wrong verifier, a rotated refresh token reused.
      assert.equal((await exchangeCode(base, client, code, verifier)).status, 400);
      assert.equal((await refreshTokens(base, client, pair.refresh_token)).status >= 400, true);
    }
    const wrongSecret = await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: tokens[1]!.refresh_token, client_id: confidential.client_id, client_secret: `${confidential.client_secret}x` });
    assert.equal(wrongSecret.status, 401);

    // The code replays above revoked those grants (AS-24): a fresh one for the MCP calls.
    const fresh = pkcePair();
    const again = await authorizeCode(base, jar, confidential, fresh.challenge);
    const liveRes = await exchangeCode(base, confidential, again.code, fresh.verifier);
    assert.equal(liveRes.status, 200);
    const live = (await liveRes.json()) as Tokens;
    for (const era of ['legacy', 'modern'] as const) {
      const res = await mcpRequest(base, live.access_token, 'tools/call', { name: 'get_teams', arguments: {} }, era);
      assert.equal(res.status, 200);
      assert.ok((await rpcMessage(res)).result);
    }
    assert.equal((await revokeToken(base, confidential, live.refresh_token)).status, 200);
    // A revoked token at the MCP endpoint logs a refusal, never the token.
    // (after the verifier's documented cache bound, CACHE_MS)
    await new Promise((r) => setTimeout(r, CACHE_MS + 100));
    assert.equal((await mcpRequest(base, live.access_token, 'tools/list')).status, 401);
    assert.equal((await mcpRequest(base, `aat_${'A'.repeat(43)}`, 'tools/list')).status, 401);
    // Sign-out and a fresh sign-in exercise the cookie paths again.
    await browserFor(base, 'ada.admin@northwind.example');

    const labels = [...recorder.secrets.values()];
    // The recorder saw every kind of secret, so the check below cannot pass vacuously.
    for (const kind of ['access_token', 'refresh_token', 'client_secret', 'registration_access_token', 'id_token', 'code in redirect to /login_google/callback', 'code in redirect to /callback', 'cookie aas_session']) {
      assert.ok(labels.some((l) => l.startsWith(kind)), `recorded no ${kind}; saw ${[...new Set(labels.map((l) => l.split(' from ')[0]))].join(', ')}`);
    }
    const log = lines.join('');
    assert.ok(lines.length > 50 && /"path":"\/oauth\/token"/.test(log), 'the service logged the flow to the captured logger');
    // oidc-provider (the development-only demo IdP) names its interaction in the URL path by design
    // (/demo-idp/<kind>/interaction/<uid>); its `_interaction*` cookies repeat that id, and their
    // `.sig` companions (checked) are what authenticate it.
    const byDesign = (value: string, label: string) => /^cookie _interaction(_resume)? /.test(label) && log.includes(`/interaction/${value}`);
    const leaked = [...recorder.secrets].filter(([value, label]) => log.includes(value) && !byDesign(value, label)).map(([, label]) => label);
    assert.deepEqual(leaked, [], `secrets in the logs: ${leaked.join('; ')}`);
    // Bearer-looking strings of our own prefixes never appear at all.
    assert.doesNotMatch(log, /\b(aat|art|aac|acs|arg)_[A-Za-z0-9_-]{20,}/);
    assert.doesNotMatch(log, /eyJ[A-Za-z0-9_-]{10,}\.eyJ/, 'a JWT (upstream ID token) in the logs');
  });

  it('stores no token, code or client secret in clear in the database', async () => {
    assert.equal(service.database.dialect, 'sqlite');
    await service.ctx.store.db.selectFrom('oauth_clients').select('client_id').limit(1).execute();
    const path = service.database.url.slice('sqlite:'.length);
    const bytes = [path, `${path}-wal`].filter(existsSync).map((p) => readFileSync(p).toString('latin1')).join('');
    const ours = [...recorder.secrets].filter(([, label]) => /^(access_token|refresh_token|client_secret|registration_access_token|code in redirect to \/callback)/.test(label));
    assert.ok(ours.length >= 6);
    const found = ours.filter(([value]) => bytes.includes(value)).map(([, label]) => label);
    assert.deepEqual(found, [], `in clear in the database: ${found.join('; ')}`);
  });

  it('seals SSO client secrets at rest and never prints them', async () => {
    const secret = `sso-secret-${'s3cr3t'.repeat(6)}`;
    const env = { DATABASE_URL: service.database.url, DATA_DIR: service.ctx.config.dataDir, SSO_CLIENT_SECRET: secret, LOG_LEVEL: 'trace' };
    const result = await runCli(['orgs', 'sso', 'set', '--org', 'globex.example', '--issuer', 'https://sso.globex.example', '--client-id', 'globex-agents', '--domain', 'globex.example'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!result.stdout.includes(secret) && !result.stderr.includes(secret), 'the CLI printed the secret');
    const org = (await findOrganizationByDomain(service.ctx.store.db, 'globex.example'))!;
    const row = await service.ctx.store.db.selectFrom('organizations').selectAll().where('id', '=', org.id).executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(secret), 'the SSO secret is stored in clear');
    const sealed = row.sso_client_secret_enc!;
    assert.match(sealed, /^v1\./);
    assert.equal(openSecret(service.ctx.config.secrets.encryptionKey, sealed, ssoSecretContext(org.id)), secret);
    // Sealed to its organization: moved to another org's row it does not open.
    assert.throws(() => openSecret(service.ctx.config.secrets.encryptionKey, sealed, ssoSecretContext('org_other')));
    const listed = await runCli(['orgs', 'list', '--json'], env);
    assert.ok(!listed.stdout.includes(secret) && !listed.stdout.includes(sealed), 'orgs list shows the secret');
  });
});
