// What a user does in the browser between a client's authorization request and its callback,
// done over plain HTTP: demo sign-in (a cookie jar and form posts), then the consent page's
// "Approve". Returns the URL the browser would be sent to (the client's redirect URI with
// code, state and iss) without following it, so each client receives it its own way.
import { CookieJar } from '../../support/cookie-jar.ts';
import { approveConsent, readConsentForm } from '../../support/consent-form.ts';
import { signInAsDemoUser } from '../../support/demo-signin.ts';

export type Approval = { callback: URL; consentPage: string };

/** Signs `email` in through the demo identity provider, then approves the consent page for `authorizationUrl`. */
export async function approveHeadless(authorizationUrl: URL | string, email: string): Promise<Approval> {
  const url = new URL(authorizationUrl);
  const jar = CookieJar.from(await signInAsDemoUser(url.origin, email));
  const page = await jar.fetch(url);
  if (page.status !== 200) throw new Error(`authorize answered HTTP ${page.status} (${page.headers.get('location') ?? (await page.text()).slice(0, 300)})`);
  const consentPage = await page.text();
  const form = readConsentForm(consentPage);
  if (!form) throw new Error('authorize did not show a consent form');
  const approved = await approveConsent(jar, new URL('/oauth/consent', url), form);
  const location = approved.headers.get('location');
  if (approved.status !== 303 || !location) throw new Error(`consent answered HTTP ${approved.status}`);
  return { callback: new URL(location), consentPage };
}

/** POST /mcp with a bearer token and a 2025-era tools/list: the status tells whether the token still works. */
export async function mcpStatus(mcpUrl: string, accessToken: string): Promise<number> {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await res.body?.cancel();
  return res.status;
}

/** RFC 7009 revocation as a public client (client_id in the body) or with client_secret_post. */
export async function revoke(baseUrl: string, clientId: string, token: string, clientSecret?: string): Promise<number> {
  const body = new URLSearchParams({ token, client_id: clientId, token_type_hint: 'refresh_token' });
  if (clientSecret) body.set('client_secret', clientSecret);
  const res = await fetch(`${baseUrl}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  await res.body?.cancel();
  return res.status;
}
