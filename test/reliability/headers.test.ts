// Headers and transport: every HTML page a person can reach (the site, sign-in, the demo IdP's
// page, refusal, consent, account and connected apps, local OAuth errors, 404s) carries a CSP with
// frame-ancestors 'none', nosniff, a Referrer-Policy and X-Frame-Options; HSTS exactly when BASE_URL
// is https; X-Forwarded-For is believed only from TRUSTED_PROXIES (AS-14, AS-12, AS-73, AS-74).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startTestService, type TestService } from '../support/service.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import { loadConfig, ConfigError } from '../../src/config/load.ts';
import { createApp } from '../../src/http/app.ts';
import { proxyTrust, resolveClientAddress, isCidr } from '../../src/http/client-address.ts';
import { PAGES } from '../../src/site/pages.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { browserFor, registerClient } from './support/oauth-flow.ts';
import { pkcePair } from '../support/pkce.ts';

function assertPageHeaders(res: Response, where: string) {
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'none'/, `${where}: CSP without frame-ancestors 'none': ${csp}`);
  assert.match(csp, /default-src 'none'|default-src 'self'/, `${where}: CSP without a restrictive default-src`);
  // Nothing loads from elsewhere; only form-action may name the client's redirect origin (consent).
  for (const directive of csp.split(';').map((d) => d.trim()).filter((d) => !d.startsWith('form-action'))) {
    assert.doesNotMatch(directive, /https?:\/\/|\*|'unsafe-inline'|'unsafe-eval'/, `${where}: CSP allows third-party or inline code: ${directive}`);
  }
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${where}: X-Content-Type-Options`);
  assert.match(res.headers.get('referrer-policy') ?? '', /^(no-referrer|same-origin|strict-origin)/, `${where}: Referrer-Policy`);
  assert.equal(res.headers.get('x-frame-options'), 'DENY', `${where}: X-Frame-Options`);
}

/** Same-origin links of a page (href and form actions), without fragments. */
function links(html: string, base: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/(?:href|action)="([^"]+)"/g)) {
    const raw = m[1]!.replaceAll('&amp;', '&');
    let url: URL;
    try {
      url = new URL(raw, base);
    } catch {
      continue;
    }
    if (url.origin === new URL(base).origin && !/\.(css|json|txt|xml|md)$/.test(url.pathname)) out.push(`${url.pathname}${url.search}`);
  }
  return out;
}

describe('security headers on every HTML page', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
    await seedDemo(service.ctx.store, { meetings: 20, documents: 5, appUrl: service.ctx.config.appUrl });
  });
  after(() => service?.close());

  it('sends CSP, nosniff, Referrer-Policy and X-Frame-Options on every page reached by walking the site and the flows', async () => {
    const base = service.baseUrl;
    const jar = await browserFor(base, 'ada.admin@northwind.example');
    const client = await registerClient(base);
    const { challenge } = pkcePair();
    const consent = `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: client.redirect_uris[0]!, code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope: 'mcp' })}`;
    const seeds = [
      ...PAGES.map((p) => p.path),
      '/signin', '/welcome', '/account', '/account/connected-apps', consent,
      '/oauth/authorize?client_id=nope&response_type=code', '/oauth/authorize',
      '/no/such/page', '/developers/nope', '/login_google/',
    ];
    const queue = seeds.map((path) => ({ path, signedIn: true })).concat(seeds.map((path) => ({ path, signedIn: false })));
    const seen = new Set<string>();
    let pages = 0;
    while (queue.length && seen.size < 120) {
      const { path, signedIn } = queue.shift()!;
      const key = `${signedIn}:${path}`;
      if (seen.has(key) || /signout|revoke/.test(path)) continue;
      seen.add(key);
      const res = await fetch(`${base}${path}`, { redirect: 'manual', headers: { accept: 'text/html', ...(signedIn ? { cookie: jar.header() } : {}) } });
      assert.ok(res.status < 500, `${path}: HTTP ${res.status}`);
      if (res.status >= 300 && res.status < 400) {
        const next = new URL(res.headers.get('location') ?? '/', `${base}${path}`);
        if (next.origin === base) queue.push({ path: `${next.pathname}${next.search}`, signedIn });
        await res.body?.cancel();
        continue;
      }
      if (!(res.headers.get('content-type') ?? '').includes('text/html')) {
        await res.body?.cancel();
        continue;
      }
      pages += 1;
      assertPageHeaders(res, `${signedIn ? 'signed in' : 'anonymous'} ${path} (${res.status})`);
      for (const link of links(await res.text(), `${base}${path}`)) queue.push({ path: link, signedIn });
    }
    // The walk reached the consent page, the demo IdP's page and the account pages, not just the site.
    assert.ok(pages >= 20, `only ${pages} HTML pages walked`);
    assert.ok([...seen].some((k) => k.includes('/demo-idp/')), 'the demo identity provider page was not reached');
  });

  it('sends the same headers on the refusal page of a personal account', async () => {
    const jar = new CookieJar();
    const go = (url: string, init: RequestInit = {}) => jar.fetch(url, init);
    let url = `${service.baseUrl}/login_google/`;
    let res = await go(url);
    for (let i = 0; i < 10 && res.status >= 300 && res.status < 400; i++) res = await go((url = new URL(res.headers.get('location')!, url).toString()));
    const page = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)![1]!.replaceAll('&amp;', '&');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1]!;
    res = await go((url = new URL(action, url).toString()), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: 'someone@gmail.com', csrf_token: csrf }).toString() });
    for (let i = 0; i < 10 && res.status >= 300 && res.status < 400; i++) res = await go((url = new URL(res.headers.get('location')!, url).toString()));
    assert.equal(res.status, 403);
    assert.match(await res.text(), /data-reason="(personal_account|personal_microsoft_account|google_no_hosted_domain)"/);
    assertPageHeaders(res, 'refusal page');
  });

  it('sends nosniff and a deny-all CSP on JSON answers too', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp', '/healthz', '/oauth/token', '/mcp']) {
      const res = await fetch(`${service.baseUrl}${path}`, { method: path.startsWith('/oauth') || path === '/mcp' ? 'POST' : 'GET' });
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, path);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/, path);
      await res.body?.cancel();
    }
  });

  it('sends no HSTS over an http BASE_URL', async () => {
    const res = await fetch(`${service.baseUrl}/`);
    assert.equal(res.headers.get('strict-transport-security'), null);
    await res.body?.cancel();
  });
});

describe('HSTS when BASE_URL is https (AS-73)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ env: { BASE_URL: 'https://agents.example.test' } });
  });
  after(() => service?.close());

  it('sends Strict-Transport-Security on pages, OAuth and MCP answers alike', async () => {
    const app = await createApp(service.ctx);
    for (const [path, method] of [['/', 'GET'], ['/signin', 'GET'], ['/oauth/authorize', 'GET'], ['/oauth/token', 'POST'], ['/mcp', 'POST'], ['/.well-known/oauth-authorization-server', 'GET'], ['/nope', 'GET']] as const) {
      const res = await app.request(`https://agents.example.test${path}`, { method });
      assert.match(res.headers.get('strict-transport-security') ?? '', /max-age=\d{7,}/, `${method} ${path}`);
    }
  });
});

/** A POST /oauth/register from the socket peer 127.0.0.1 with the given X-Forwarded-For. */
function registerFrom(port: number, forwardedFor: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ client_name: 'xff', redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' });
    const headers: Record<string, string> = { host: `localhost:${port}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
    const req = request({ host: '127.0.0.1', port, path: '/oauth/register', method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('X-Forwarded-For only from configured proxies (AS-74)', () => {
  it('ignores X-Forwarded-For when TRUSTED_PROXIES is unset: a spoofed header cannot pick a fresh bucket', async () => {
    const service = await startTestService({ env: { OAUTH_REGISTER_PER_HOUR: '3' } });
    try {
      const port = Number(new URL(service.baseUrl).port);
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push(await registerFrom(port, `203.0.113.${i + 1}`));
      assert.deepEqual(statuses, [201, 201, 201, 429, 429]);
    } finally {
      await service.close();
    }
  });

  it('keys limits on the forwarded client when the peer is a trusted proxy, and on the rightmost untrusted hop', async () => {
    const service = await startTestService({ env: { OAUTH_REGISTER_PER_HOUR: '2', TRUSTED_PROXIES: '127.0.0.1/32, ::1, 10.0.0.0/8' } });
    try {
      const port = Number(new URL(service.baseUrl).port);
      // Two clients behind the proxy each get their own bucket.
      assert.deepEqual([await registerFrom(port, '198.51.100.1'), await registerFrom(port, '198.51.100.1'), await registerFrom(port, '198.51.100.1')], [201, 201, 429]);
      assert.equal(await registerFrom(port, '198.51.100.2'), 201);
      // A client prepending a fake address cannot escape its bucket: the rightmost untrusted hop counts.
      assert.equal(await registerFrom(port, '192.0.2.99, 198.51.100.1'), 429);
      assert.equal(await registerFrom(port, '192.0.2.98, 198.51.100.1, 10.1.2.3'), 429);
    } finally {
      await service.close();
    }
  });

  it('resolves the client address from the right, never past an untrusted or garbled hop', () => {
    const trust = proxyTrust(['10.0.0.0/8', '::1', '127.0.0.1']);
    assert.equal(resolveClientAddress('10.0.0.5', '198.51.100.7', trust), '198.51.100.7');
    assert.equal(resolveClientAddress('10.0.0.5', '1.1.1.1, 198.51.100.7, 10.2.2.2', trust), '198.51.100.7');
    assert.equal(resolveClientAddress('::ffff:10.0.0.5', '198.51.100.7', trust), '198.51.100.7');
    assert.equal(resolveClientAddress('198.51.100.9', '1.2.3.4', trust), '198.51.100.9', 'untrusted peer: header ignored');
    assert.equal(resolveClientAddress('10.0.0.5', 'not-an-ip, 198.51.100.7', trust), '198.51.100.7');
    assert.equal(resolveClientAddress('10.0.0.5', '198.51.100.7, garbage', trust), '10.0.0.5', 'a garbled hop is not believed');
    assert.equal(resolveClientAddress('10.0.0.5', '10.0.0.6', trust), '10.0.0.6', 'an all-trusted chain yields its first hop');
    assert.equal(resolveClientAddress('::1', '[2001:db8::1]', trust), '2001:db8::1');
    assert.equal(resolveClientAddress('127.0.0.1', undefined, proxyTrust([])), '127.0.0.1');
    assert.equal(resolveClientAddress('127.0.0.1', '9.9.9.9', proxyTrust([])), '127.0.0.1', 'no proxies configured: header ignored');
  });

  it('accepts a CIDR list in TRUSTED_PROXIES and refuses anything else, naming the variable', () => {
    for (const ok of ['10.0.0.0/8', '::1', '2001:db8::/32', '192.0.2.7']) assert.ok(isCidr(ok), ok);
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0/8', '::1/129', '1.2.3.4/8/1', '']) assert.ok(!isCidr(bad), bad);
    const base = { APP_ENV: 'development', DATA_DIR: '/tmp/aas-cidr-test', HASH_SECRET: 'h'.repeat(32), ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') };
    assert.deepEqual(loadConfig(base).trustedProxies, []);
    assert.deepEqual(loadConfig({ ...base, TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).trustedProxies, ['10.0.0.0/8', '::1']);
    assert.throws(() => loadConfig({ ...base, TRUSTED_PROXIES: '10.0.0.0/8,proxy.internal' }), (e: unknown) => e instanceof ConfigError && e.variable === 'TRUSTED_PROXIES');
  });
});
