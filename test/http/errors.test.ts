// How failures are answered: people get an HTML page, programs their protocol's JSON, decided once
// (src/http/errors.ts errorFormat). The fault is real: the database itself refuses a write (a trigger
// installed over a separate connection, as a newer release's schema or an operator's policy would),
// so the service hits an error it does not classify and answers 500.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../support/databases.ts';
import { authorizeUrl, consentForm, form, json, pkce, refuseWrites, REFUSAL, registerClient, signedInBrowser, startHarness, type Harness } from '../auth-server/harness.ts';

async function assertHtml500(res: Response, why: string): Promise<void> {
  const text = await res.text();
  assert.equal(res.status, 500, `${why}: ${text.slice(0, 200)}`);
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/, why);
  assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, why);
  assert.equal(res.headers.get('cache-control'), 'no-store', why);
  assert.match(text, /<h1>Something went wrong<\/h1>/, why);
  assert.ok(text.includes(res.headers.get('x-request-id') ?? 'missing'), `${why}: quotes the request id`);
  assert.ok(!text.includes(REFUSAL), `${why}: hides the cause`);
}

async function assertJson500(res: Response, why: string): Promise<void> {
  const text = await res.text();
  assert.equal(res.status, 500, `${why}: ${text.slice(0, 200)}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, why);
  const body = JSON.parse(text) as { error: string; error_description: string };
  assert.equal(body.error, 'server_error', why);
  assert.ok(body.error_description.includes(res.headers.get('x-request-id') ?? 'missing'), `${why}: quotes the request id`);
  assert.ok(!text.includes(REFUSAL), `${why}: hides the cause`);
}

for (const dialect of dialectsUnderTest()) {
  describe(`an unexpected failure is answered in the format of who reads it (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(dialect);
    });
    after(async () => h.close());

    it('the authorization and consent pages answer people with an HTML 500 page, whatever Accept says', async () => {
      const client = await registerClient(h);
      const { challenge } = pkce();
      const approving = await signedInBrowser(h);
      const consent = consentForm(await (await approving.get(authorizeUrl(client, challenge))).text());
      const allowInsert = await refuseWrites(h, 'oauth_pending_requests', 'INSERT');
      const allowUpdate = await refuseWrites(h, 'oauth_pending_requests', 'UPDATE');
      try {

        const asking = await signedInBrowser(h);
        await assertHtml500(await asking.get(authorizeUrl(client, challenge)), 'GET /oauth/authorize');
        const cookie = asking.cookie;
        const withJsonAccept = await h.request(authorizeUrl(client, challenge), { headers: { cookie, accept: 'application/json' }, redirect: 'manual' });
        await assertHtml500(withJsonAccept, 'GET /oauth/authorize with Accept: application/json');
        await assertHtml500(await approving.post('/oauth/consent', { ...consent, decision: 'approve' }), 'POST /oauth/consent');
      } finally {
        await allowInsert();
        await allowUpdate();
      }
    });

    it('an OAuth API answers programs with a JSON 500, whatever Accept says', async () => {
      const allow = await refuseWrites(h, 'oauth_clients', 'INSERT');
      try {
        const body = { client_name: 'x', redirect_uris: ['https://client.example/cb'], token_endpoint_auth_method: 'none' };
        await assertJson500(await h.request('/oauth/register', json(body)), 'POST /oauth/register');
        const asHtml = await h.request('/oauth/register', { ...json(body), headers: { 'content-type': 'application/json', accept: 'text/html' } });
        await assertJson500(asHtml, 'POST /oauth/register with Accept: text/html');
      } finally {
        await allow();
      }
    });

    it('other pages are HTML unless Accept prefers JSON, and say that Accept decided', async () => {
      const browser = await signedInBrowser(h);
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(await (await browser.get('/account')).text())?.[1] ?? '';
      assert.ok(csrf, 'the account page has a sign-out form');
      const allow = await refuseWrites(h, 'browser_sessions', 'DELETE');
      try {
        const signOut = (accept: string) => h.request('/signout', { ...form({ csrf_token: csrf }), headers: { ...form({}).headers, cookie: browser.cookie, accept } });
        const page = await signOut('text/html,application/xhtml+xml,*/*;q=0.8');
        assert.equal(page.headers.get('vary'), 'Accept');
        await assertHtml500(page, 'POST /signout from a browser');
        const program = await signOut('application/json');
        assert.equal(program.headers.get('vary'), 'Accept');
        await assertJson500(program, 'POST /signout with Accept: application/json');
      } finally {
        await allow();
      }
    });
  });
}
