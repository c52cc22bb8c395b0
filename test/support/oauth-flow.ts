// A token obtained the way a real client obtains one: dynamic registration, an authorization
// request with PKCE, demo sign-in and consent (over plain HTTP), and the code exchange.
import { randomBytes } from 'node:crypto';
import { approveHeadless } from '../clients/support/headless.ts';
import { pkcePair } from './pkce.ts';

export type FlowTokens = { access_token: string; refresh_token: string; client_id: string };

export async function tokenThroughOAuth(baseUrl: string, email: string): Promise<FlowTokens> {
  const redirectUri = 'http://127.0.0.1/callback';
  const registered = await fetch(`${baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'oauth-flow test', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
  });
  if (registered.status !== 201) throw new Error(`registration answered ${registered.status}`);
  const { client_id } = (await registered.json()) as { client_id: string };
  const { verifier, challenge } = pkcePair();
  const authorize = new URL('/oauth/authorize', baseUrl);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id,
    redirect_uri: redirectUri,
    scope: 'mcp',
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${baseUrl}/mcp`,
  })) authorize.searchParams.set(k, v);
  const { callback } = await approveHeadless(authorize, email);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback}`);
  const exchanged = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id }).toString(),
  });
  if (exchanged.status !== 200) throw new Error(`token endpoint answered ${exchanged.status}: ${await exchanged.text()}`);
  return { ...((await exchanged.json()) as { access_token: string; refresh_token: string }), client_id };
}
