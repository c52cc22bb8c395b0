// The whole OAuth flow over real HTTP, step by step, against any base URL (one instance, or the
// round-robin proxy in front of several): register → demo sign-in → authorize → consent → code →
// token → refresh → revoke, and raw MCP calls in both eras. Each step returns what it saw so
// tests can assert on every secret that crossed the wire.
import { approveConsent, readConsentForm } from '../../support/consent-form.ts';
import { CookieJar } from '../../support/cookie-jar.ts';
import { signInAsDemoUser } from '../../support/demo-signin.ts';
import { pkcePair } from '../../support/pkce.ts';

export const REDIRECT_URI = 'http://127.0.0.1:7777/callback';

export type Client = { client_id: string; client_secret?: string; registration_access_token?: string; redirect_uris: string[] };
export type Tokens = { access_token: string; refresh_token: string; expires_in: number; scope: string };

export async function registerClient(base: string, metadata: Record<string, unknown> = {}): Promise<Client> {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Reliability client', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...metadata }),
  });
  if (res.status !== 201) throw new Error(`register: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as Client;
}

/** A signed-in browser: the demo sign-in's cookies in a jar that keeps later Set-Cookies. */
export async function browserFor(base: string, email: string): Promise<CookieJar> {
  return CookieJar.from(await signInAsDemoUser(base, email));
}

/**
 * GET /oauth/authorize with the browser, approve the consent page (or take the remembered consent's
 * redirect), and return the code. `bases` lets each request go to a different address (instances).
 */
export async function authorizeCode(bases: string[] | string, jar: CookieJar, client: Client, challenge: string, state = 'st'): Promise<{ code: string; location: URL }> {
  const at = (i: number) => (Array.isArray(bases) ? bases[i % bases.length]! : bases);
  const query = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: client.redirect_uris[0]!, code_challenge: challenge, code_challenge_method: 'S256', state, scope: 'mcp' });
  const page = await jar.fetch(`${at(0)}/oauth/authorize?${query}`);
  let location = page.headers.get('location');
  if (page.status === 200) {
    const form = readConsentForm(await page.text());
    if (!form) throw new Error('authorize: no consent form on the page');
    const res = await approveConsent(jar, `${at(1)}/oauth/consent`, form);
    if (res.status !== 303) throw new Error(`consent: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    location = res.headers.get('location');
  } else {
    await page.body?.cancel();
  }
  if (!location) throw new Error(`authorize: HTTP ${page.status} without a location`);
  const url = new URL(location);
  const code = url.searchParams.get('code');
  if (!code) throw new Error(`authorize: no code in ${location}`);
  return { code, location: url };
}

export async function tokenRequest(base: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });
}

export function exchangeCode(base: string, client: Client, code: string, verifier: string): Promise<Response> {
  const fields: Record<string, string> = { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.client_id, redirect_uri: client.redirect_uris[0]! };
  if (client.client_secret) fields.client_secret = client.client_secret;
  return tokenRequest(base, fields);
}

export function refreshTokens(base: string, client: Client, refreshToken: string): Promise<Response> {
  const fields: Record<string, string> = { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.client_id };
  if (client.client_secret) fields.client_secret = client.client_secret;
  return tokenRequest(base, fields);
}

export function revokeToken(base: string, client: Client, token: string): Promise<Response> {
  const fields: Record<string, string> = { token, client_id: client.client_id };
  if (client.client_secret) fields.client_secret = client.client_secret;
  return fetch(`${base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
}

/** Sign-in, registration, consent and the code exchange: a fresh token pair for `email`. */
export async function fullFlow(base: string, email: string, metadata: Record<string, unknown> = {}) {
  const client = await registerClient(base, metadata);
  const jar = await browserFor(base, email);
  const { verifier, challenge } = pkcePair();
  const { code } = await authorizeCode(base, jar, client, challenge);
  const res = await exchangeCode(base, client, code, verifier);
  if (res.status !== 200) throw new Error(`token: HTTP ${res.status} ${await res.text()}`);
  return { client, jar, code, tokens: (await res.json()) as Tokens };
}

export const MODERN = '2026-07-28';
export const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

/** One JSON-RPC request to /mcp; `era` picks the headers and `_meta` a real client would send. */
export async function mcpRequest(base: string, token: string, method: string, params: Record<string, unknown> = {}, era: 'legacy' | 'modern' = 'legacy', id: number = 1): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let body: Record<string, unknown> = { jsonrpc: '2.0', id, method, params };
  if (era === 'modern') {
    headers['mcp-protocol-version'] = MODERN;
    headers['mcp-method'] = method;
    if (method === 'tools/call' && typeof params.name === 'string') headers['mcp-name'] = params.name;
    body = { ...body, params: { ...params, _meta: MODERN_META } };
  } else {
    headers['mcp-protocol-version'] = '2025-06-18';
  }
  return fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });
}
