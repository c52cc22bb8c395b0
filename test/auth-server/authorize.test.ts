import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { listAuditEvents } from '../../src/store/audit-events.ts';
import { collectAbandonedClients } from '../../src/auth-server/index.ts';
import { findClient } from '../../src/store/oauth-clients.ts';
import { dialectsUnderTest } from '../support/databases.ts';
import { authorizeUrl, BASE_URL, consentForm, pkce, registerClient, signedInBrowser, startHarness, type Browser, type Harness, type RegisteredClient } from './harness.ts';

const { challenge } = pkce();

describe('authorization endpoint', () => {
  let h: Harness;
  let browser: Browser;
  let client: RegisteredClient;
  let loopback: RegisteredClient;
  before(async () => {
    h = await startHarness('sqlite');
    browser = await signedInBrowser(h);
    client = await registerClient(h, { client_name: 'Web client', redirect_uris: ['https://client.example/cb', 'https://client.example/cb2?x=1'] });
    loopback = await registerClient(h, {
      client_name: 'CLI',
      redirect_uris: ['http://localhost/callback', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'exampleapp://oauth/callback'],
    });
  });
  after(async () => h.close());

  const url = (c: RegisteredClient, extra: Record<string, string> = {}) => authorizeUrl(c, challenge, extra);
  /** Fresh browsers so no remembered consent interferes. */
  const fresh = () => signedInBrowser(h);
  const anon = (path: string) => h.request(path, { redirect: 'manual' });
  const isLocal400 = async (res: Response, why: string) => {
    assert.equal(res.status, 400, why);
    assert.equal(res.headers.get('location'), null, `${why}: never redirects`);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    return res.text();
  };
  /** How many authorization requests are stored (each one shown page, or one sign-in, needs one). */
  const storedRequests = async () => (await h.ctx.store.db.selectFrom('oauth_pending_requests').select('handle_hash').execute()).length;
  /** Lands on the consent page (200) for a valid request. */
  const accepted = async (res: Response, why: string) => assert.equal(res.status, 200, `${why}: ${res.status} ${res.headers.get('location') ?? ''}`);

  it('AS-1 redirect_uri must be byte-equal to a registered one', async () => {
    const b = await fresh();
    for (const bad of [
      'https://client.example/cb/',
      'https://client.example/CB',
      'https://CLIENT.example/cb',
      'https://client.example/cb?extra=1',
      'https://client.example/cb2?x=1&y=2',
      'https://client.example%2Fcb',
      'https://client.example/cb%2F',
      'https://client.example:443/cb',
      'https://client.example:8443/cb',
    ]) {
      await isLocal400(await b.get(url(client, { redirect_uri: bad })), bad);
    }
    await accepted(await b.get(url(client, { redirect_uri: 'https://client.example/cb2?x=1' })), 'exact with query');
  });

  it('AS-1 loopback: only the port may differ; localhost and 127.0.0.1 are not interchangeable', async () => {
    const b = await fresh();
    for (const bad of ['http://127.0.0.1/callback', 'http://localhost/cb', 'http://localhost:5000/callback/', 'http://localhost:5000/Callback', 'http://localhost:5000/callback?x=1', 'https://localhost/callback', 'http://[::1]/callback']) {
      await isLocal400(await b.get(url(loopback, { redirect_uri: bad })), bad);
    }
  });

  it('AS-2 P2 any port is accepted for registered loopback URIs, with or without a registered port', async () => {
    const b = await fresh();
    for (const ok of ['http://localhost:53999/callback', 'http://localhost/callback', 'http://127.0.0.1:33418/cb', 'http://[::1]:1234/cb', 'http://[::1]/cb']) {
      await accepted(await b.get(url(loopback, { redirect_uri: ok })), ok);
    }
  });

  it('AS-3 a missing, unknown or mismatched client_id or redirect_uri renders a local 400 page and never redirects', async () => {
    await isLocal400(await anon(url(client, { client_id: 'cli_unknown' })), 'unknown client');
    await isLocal400(await anon(`/oauth/authorize?response_type=code&redirect_uri=https://client.example/cb&code_challenge=${challenge}&code_challenge_method=S256`), 'missing client_id');
    await isLocal400(await anon(url(client, { redirect_uri: 'https://evil.example/cb' })), 'foreign redirect');
    const other = await registerClient(h, { redirect_uris: ['https://other.example/cb'] });
    await isLocal400(await anon(url(client, { redirect_uri: other.redirect_uris[0] ?? '' })), 'another client’s redirect');
  });

  it('AS-6 P3 a stored private-use scheme is refused at authorize by policy (local page)', async () => {
    // Only allowlisted private-use URIs (Cursor's, test/clients/redirect-shapes.test.ts) are followed.
    await isLocal400(await (await fresh()).get(url(loopback, { redirect_uri: 'exampleapp://oauth/callback' })), 'exampleapp://');
  });

  it('AS-7 redirect_uri may be omitted only when exactly one is registered', async () => {
    const single = await registerClient(h, { redirect_uris: ['https://single.example/cb'] });
    const params = new URLSearchParams({ response_type: 'code', client_id: single.client_id, code_challenge: challenge, code_challenge_method: 'S256' });
    await accepted(await (await fresh()).get(`/oauth/authorize?${params}`), 'single registered');
    params.set('client_id', client.client_id);
    await isLocal400(await (await fresh()).get(`/oauth/authorize?${params}`), 'two registered');
  });

  it('AS-17 AS-18 AS-19 PKCE: missing challenge, plain, missing method or a malformed challenge → local 400 (invalid_request)', async () => {
    const b = await fresh();
    const base = new URL(`${BASE_URL}${url(client)}`);
    const cases: [string, (p: URLSearchParams) => void][] = [
      ['no challenge', (p) => p.delete('code_challenge')],
      ['plain', (p) => p.set('code_challenge_method', 'plain')],
      ['no method', (p) => p.delete('code_challenge_method')],
      ['short challenge', (p) => p.set('code_challenge', 'abc')],
      ['bad characters', (p) => p.set('code_challenge', `${'a'.repeat(42)}=`)],
    ];
    for (const [why, change] of cases) {
      const p = new URLSearchParams(base.search);
      change(p);
      const text = await isLocal400(await b.get(`/oauth/authorize?${p}`), why);
      assert.match(text, /invalid_request/);
    }
  });

  it('AS-8 repeated parameters are invalid_request; unknown ones are ignored; empty values count as absent', async () => {
    const b = await fresh();
    await isLocal400(await b.get(`${url(client)}&state=again`), 'repeated state');
    await isLocal400(await b.get(`${url(client)}&client_id=${client.client_id}`), 'repeated client_id');
    await accepted(await b.get(`${url(client)}&unknown_param=1&prompt=consent`), 'unknown parameters');
    const res = await b.get(url(client, { scope: '' }));
    await accepted(res, 'empty scope is absent (defaults to mcp)');
    assert.match(await res.text(), /<code>mcp<\/code>/);
  });

  it('AS-11 with no session, even an invalid request only goes to sign-in; the error is delivered after authentication', async () => {
    const res = await anon(url(client, { response_type: 'token' }));
    assert.equal(res.status, 302);
    const signIn = new URL(res.headers.get('location') ?? '');
    assert.equal(signIn.origin, BASE_URL, 'to our own sign-in, not the client');
    const returnTo = signIn.searchParams.get('return_to') ?? '';
    assert.match(returnTo, /^\/oauth\/consent\?request=aah_/);
    assert.ok(!returnTo.includes('response_type'), 'the browser carries only an opaque handle');
    const b = await fresh();
    const after = await b.get(returnTo);
    assert.equal(after.status, 302);
    const back = new URL(after.headers.get('location') ?? '');
    assert.equal(back.origin + back.pathname, 'https://client.example/cb');
    assert.equal(back.searchParams.get('error'), 'unsupported_response_type');
    assert.equal(back.searchParams.get('iss'), BASE_URL);
    assert.equal(back.searchParams.get('state'), 'st-1');
  });

  it('AS-10 response_type other than code → unsupported_response_type by redirect; a missing one → invalid_request', async () => {
    const before = await storedRequests();
    for (const [type, error] of [['token', 'unsupported_response_type'], ['code id_token', 'unsupported_response_type']] as const) {
      const res = await browser.get(url(client, { response_type: type }));
      assert.equal(new URL(res.headers.get('location') ?? '').searchParams.get('error'), error, type);
    }
    assert.equal(await storedRequests(), before, 'a signed-in browser gets the error at once: nothing is stored');
    const p = new URLSearchParams(new URL(`${BASE_URL}${url(client)}`).search);
    p.delete('response_type');
    const res = await browser.get(`/oauth/authorize?${p}`);
    assert.equal(new URL(res.headers.get('location') ?? '').searchParams.get('error'), 'invalid_request');
  });

  it('AS-54 P11 scope and resource problems are redirected errors with state and iss', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ scope: 'mcp admin' }, 'invalid_scope'],
      [{ scope: 'offline_access' }, 'invalid_scope'],
      [{ resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
      [{ resource: `${BASE_URL}/` }, 'invalid_target'],
    ];
    for (const [extra, error] of cases) {
      const res = await browser.get(url(client, extra));
      assert.equal(res.status, 302, JSON.stringify(extra));
      const back = new URL(res.headers.get('location') ?? '');
      assert.equal(back.searchParams.get('error'), error);
      assert.equal(back.searchParams.get('iss'), BASE_URL);
      assert.equal(back.searchParams.get('state'), 'st-1');
      assert.match(back.searchParams.get('error_description') ?? '', /^[\x20-\x7e]+$/);
    }
  });

  it('P11 OIDC identity scopes are dropped rather than refused; the trailing-slash resource is accepted', async () => {
    const res = await (await fresh()).get(url(client, { scope: 'openid email profile mcp', resource: `${BASE_URL}/mcp/` }));
    assert.equal(res.status, 200);
    const page = await res.text();
    assert.match(page, /<code>mcp<\/code>/);
    assert.doesNotMatch(page, /<code>openid<\/code>/);
  });

  it('AS-12 AS-14 pages send no-referrer, forbid framing and load nothing third-party', async () => {
    for (const res of [await (await fresh()).get(url(client)), await anon(url(client, { client_id: 'cli_unknown' }))]) {
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /default-src 'none'/);
      const page = await res.text();
      assert.doesNotMatch(page, /(src|href)="(https?:)?\/\//, 'no third-party resources');
    }
  });

  it('AS-15 state is echoed exactly, once', async () => {
    const state = 'a b&c=d/é?%';
    const b = await fresh();
    const page = await b.get(url(client, { state }));
    const res = await b.post('/oauth/consent', { ...consentForm(await page.text()), decision: 'approve' });
    const back = new URL(res.headers.get('location') ?? '');
    assert.deepEqual(back.searchParams.getAll('state'), [state]);
    assert.equal(back.searchParams.getAll('iss').length, 1);
  });

  it('AS-16 AS-29 the consent page escapes client-supplied values and shows name (unverified), redirect host, scope and resource', async () => {
    const evil = await registerClient(h, { client_name: '<script>alert(1)</script>Evil "app"', redirect_uris: ['https://evil-host.example/cb'] });
    const res = await (await fresh()).get(url(evil, { state: '"><img src=x onerror=alert(1)>' }));
    const page = await res.text();
    assert.equal(res.status, 200);
    assert.ok(!page.includes('<script>alert(1)</script>'));
    assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!page.includes('<img src=x'));
    assert.match(page, /Unverified/i);
    assert.match(page, /evil-host\.example/);
    assert.match(page, /<code>mcp<\/code>/);
    assert.ok(page.includes(`${BASE_URL}/mcp`));
    assert.doesNotMatch(page, /this computer/);
  });

  it('AS-29 a loopback redirect gets a loud warning', async () => {
    const page = await (await (await fresh()).get(url(loopback, { redirect_uri: 'http://127.0.0.1:4567/cb' }))).text();
    assert.match(page, /role="alert"/);
    assert.match(page, /this computer/);
  });

  it('AS-28 consent is shown on our origin before any code; the consent POST allows only the redirect target in form-action', async () => {
    const newcomer = await registerClient(h, { redirect_uris: ['https://client.example/cb'] });
    const res = await (await fresh()).get(url(newcomer));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('location'), null);
    assert.match(res.headers.get('content-security-policy') ?? '', /form-action 'self' https:\/\/client\.example(;|$)/);
    const codes = await h.ctx.store.db.selectFrom('oauth_codes').select('code_hash').where('client_id', '=', newcomer.client_id).execute();
    const page = await res.text();
    assert.match(page, /action="\/oauth\/consent"/);
    assert.equal(codes.length, 0, 'no code exists before approval');
  });

  it('AS-30 the consent POST needs the CSRF token bound to the handle and this browser; the form carries only the handle', async () => {
    const b = await fresh();
    const form1 = consentForm(await (await b.get(url(client))).text());
    const form2 = consentForm(await (await b.get(url(client))).text());
    assert.match(form1.request, /^aah_/);
    let res = await b.post('/oauth/consent', { request: form1.request, csrf_token: 'forged', decision: 'approve' });
    await isLocal400(res, 'forged token');
    res = await b.post('/oauth/consent', { request: form1.request, csrf_token: form2.csrf_token, decision: 'approve' });
    await isLocal400(res, 'token of another request');
    const other = await fresh();
    res = await other.post('/oauth/consent', { ...form1, decision: 'approve' });
    await isLocal400(res, 'token of another browser');
    res = await b.post('/oauth/consent', { ...form1, decision: 'approve' });
    assert.equal(res.status, 303);
    res = await b.post('/oauth/consent', { ...form1, decision: 'approve' });
    await isLocal400(res, 'single use');
  });

  it('AS-13 the consent POST redirects with 303, never 307; an unauthenticated POST goes to sign-in with 303', async () => {
    const b = await fresh();
    const f = consentForm(await (await b.get(url(client))).text());
    const unauth = await h.request('/oauth/consent', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...f, decision: 'approve' }).toString() });
    assert.equal(unauth.status, 303);
    const res = await b.post('/oauth/consent', { ...f, decision: 'approve' });
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location') ?? '', /^https:\/\/client\.example\/cb\?code=aac_/);
  });

  it('AS-26 a successful authorization response carries code, state and iss', async () => {
    const b = await fresh();
    const f = consentForm(await (await b.get(url(client))).text());
    const back = new URL((await b.post('/oauth/consent', { ...f, decision: 'approve' })).headers.get('location') ?? '');
    assert.match(back.searchParams.get('code') ?? '', /^aac_/);
    assert.equal(back.searchParams.get('state'), 'st-1');
    assert.equal(back.searchParams.get('iss'), BASE_URL);
  });

  it('AS-32 denying consent redirects with access_denied, state and iss to the validated redirect URI, and is audited', async () => {
    const b = await fresh();
    const f = consentForm(await (await b.get(url(client))).text());
    const res = await b.post('/oauth/consent', { ...f, decision: 'deny' });
    assert.equal(res.status, 303);
    const back = new URL(res.headers.get('location') ?? '');
    assert.equal(back.origin + back.pathname, 'https://client.example/cb');
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), 'st-1');
    assert.equal(back.searchParams.get('iss'), BASE_URL);
    assert.equal(back.searchParams.get('code'), null);
    assert.ok((await listAuditEvents(h.ctx.store.db, { kind: 'consent_denied', clientId: client.client_id })).some((e) => e.userId === b.userId));
  });

  it('AS-31 the server-side record of a pending request is single-use and expires within 10 minutes', async () => {
    const b = await fresh();
    const f = consentForm(await (await b.get(url(client))).text());
    const row = await h.ctx.store.db.selectFrom('oauth_pending_requests').selectAll().orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    assert.ok(row.expires_at - row.created_at <= 10 * 60 * 1000);
    assert.ok(!row.handle_hash.includes(f.request.slice(4)), 'stored under a keyed hash');
    await b.post('/oauth/consent', { ...f, decision: 'approve' });
    await isLocal400(await b.get(`/oauth/consent?request=${f.request}`), 'used');
    await h.ctx.store.db.updateTable('oauth_pending_requests').set({ expires_at: Date.now() - 1 }).execute();
    const g = consentForm(await (await b.get(url(client, { redirect_uri: 'https://client.example/cb2?x=1' }))).text());
    await h.ctx.store.db.updateTable('oauth_pending_requests').set({ expires_at: Date.now() - 1 }).execute();
    await isLocal400(await b.post('/oauth/consent', { ...g, decision: 'approve' }), 'expired');
  });

  it('AS-62 client_uri, logo_uri, policy_uri and tos_uri are never rendered as links or images', async () => {
    const fancy = await registerClient(h, { redirect_uris: ['https://fancy.example/cb'], client_uri: 'https://phish.example/', logo_uri: 'https://phish.example/logo.png', tos_uri: 'https://phish.example/tos' });
    const page = await (await (await fresh()).get(url(fancy))).text();
    assert.ok(!page.includes('phish.example'));
  });

  it('AS-35 remembered consent re-approves silently only for the same client, redirect URI, resource and a scope subset', async () => {
    const b = await fresh();
    const f = consentForm(await (await b.get(url(client, { scope: 'mcp offline_access' }))).text());
    await b.post('/oauth/consent', { ...f, decision: 'approve' });
    assert.ok((await listAuditEvents(h.ctx.store.db, { kind: 'consent_granted', clientId: client.client_id })).some((e) => e.userId === b.userId));
    const before = await storedRequests();
    let res = await b.get(url(client, { scope: 'mcp' }));
    assert.equal(res.status, 302, 'subset: silent');
    assert.match(res.headers.get('location') ?? '', /code=aac_/);
    assert.equal(await storedRequests(), before, 'no page, so no stored request');
    res = await b.get(url(client, { redirect_uri: 'https://client.example/cb2?x=1' }));
    assert.equal(res.status, 200, 'another redirect URI asks again');
    const sibling = await registerClient(h, { client_name: 'Web client', redirect_uris: ['https://client.example/cb'] });
    res = await b.get(url(sibling));
    assert.equal(res.status, 200, 'another client with the same name and redirect asks again');
    res = await (await fresh()).get(url(client, { scope: 'mcp' }));
    assert.equal(res.status, 200, 'another user asks again');
  });
});

for (const dialect of dialectsUnderTest()) {
  describe(`consent for a client removed while its page was open (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(dialect);
    });
    after(async () => h.close());

    /** The consent page for a new client, then the client removed by the abandoned-client job. */
    const pageThenRemoved = async () => {
      const removed = await registerClient(h, { client_name: 'Soon gone', redirect_uris: ['https://gone.example/cb'] });
      const b = await signedInBrowser(h);
      const page = await b.get(authorizeUrl(removed, challenge));
      assert.equal(page.status, 200, 'the consent page');
      const form = consentForm(await page.text());
      const later = Date.now() + (h.ctx.config.oauth.clientTtlDays + 1) * 24 * 3600 * 1000;
      assert.ok((await collectAbandonedClients(h.ctx, later)).includes(removed.client_id));
      assert.equal(await findClient(h.ctx.store.db, removed.client_id), undefined);
      return { b, form, clientId: removed.client_id };
    };
    const refusedLocally = async (res: Response) => {
      const page = await res.text();
      assert.equal(res.status, 400, page.slice(0, 300));
      assert.equal(res.headers.get('location'), null, 'never redirects');
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.match(page, /client_id is not a registered client/);
    };

    it('approving issues no code and remembers no consent: a local error page instead', async () => {
      const { b, form, clientId } = await pageThenRemoved();
      await refusedLocally(await b.post('/oauth/consent', { ...form, decision: 'approve' }));
      assert.equal((await h.ctx.store.db.selectFrom('oauth_codes').select('code_hash').where('client_id', '=', clientId).execute()).length, 0, 'no code');
      assert.equal((await h.ctx.store.db.selectFrom('oauth_consents').selectAll().where('client_id', '=', clientId).execute()).length, 0, 'no remembered consent');
      assert.equal((await listAuditEvents(h.ctx.store.db, { kind: 'consent_granted', clientId })).length, 0);
    });

    it('denying does not redirect to the removed client\'s redirect URI either', async () => {
      const { b, form } = await pageThenRemoved();
      await refusedLocally(await b.post('/oauth/consent', { ...form, decision: 'deny' }));
    });
  });
}
