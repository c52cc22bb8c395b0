// The authorization request (RFC 6749 §4.1.1, RFC 7636, RFC 8707) validated in two stages:
// `trustedTarget` establishes the client and the redirect URI (failures are shown locally and never
// redirected, AS-3) plus PKCE (the spec's 400 for missing PKCE); `otherChecks` covers what may be
// reported to the client by redirect, after sign-in (AS-10, AS-11).
import type { AppContext } from '../../http/context.ts';
import type { OAuthClient } from '../../store/oauth-clients.ts';
import { ClientMetadataError } from '../clients/metadata-document.ts';
import { resolveClient } from '../clients/resolve.ts';
import { InvalidRequest, InvalidScope, InvalidTarget, UnsupportedResponseType, type OAuthError } from '../errors.ts';
import type { Params } from '../http/params.ts';
import { CHALLENGE } from '../pkce.ts';
import { matchesRegistered, usableForRedirect } from '../redirect-uris.ts';
import { canonicalizeResource, canonicalResource, DROPPED_SCOPES } from '../resource.ts';

export type Target = { client: OAuthClient; redirectUri: string; state: string | undefined };

export type ValidRequest = Target & { codeChallenge: string; scope: string; resource: string };

/** A problem that must not be sent to the redirect URI: rendered as a local 400 page. */
export class LocalProblem extends Error {
  readonly error: OAuthError;
  constructor(error: OAuthError) {
    super(error.message);
    this.error = error;
  }
}

const local = (error: OAuthError) => new LocalProblem(error);

/** The client named by `clientId`; an unknown one, or an unusable metadata document, is a local problem. */
export async function loadClient(ctx: AppContext, clientId: string): Promise<OAuthClient> {
  let client: OAuthClient | undefined;
  try {
    client = await resolveClient(ctx, clientId);
  } catch (error) {
    if (error instanceof ClientMetadataError) throw local(new InvalidRequest(error.message));
    throw error;
  }
  if (!client) throw local(new InvalidRequest('client_id is not a registered client'));
  return client;
}

async function checkClient(ctx: AppContext, params: Params): Promise<OAuthClient> {
  const clientId = params.get('client_id');
  if (!clientId) throw local(new InvalidRequest('client_id is required'));
  return loadClient(ctx, clientId);
}

/** AS-1, AS-2, AS-7 and the P3 policy (https, loopback and allowlisted private-use redirects are followed). */
function checkRedirectUri(client: OAuthClient, params: Params): string {
  const sent = params.get('redirect_uri');
  let redirectUri: string;
  if (sent === undefined) {
    const only = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
    if (!only) throw local(new InvalidRequest('redirect_uri is required when the client registered more than one'));
    redirectUri = only;
  } else {
    if (!matchesRegistered(client.redirectUris, sent)) throw local(new InvalidRequest('redirect_uri is not registered for this client'));
    redirectUri = sent;
  }
  if (!usableForRedirect(redirectUri)) throw local(new InvalidRequest('redirect_uri uses a scheme this server does not redirect to (https, loopback http, or an allowlisted application callback such as Cursor\'s)'));
  return redirectUri;
}

/** AS-17, AS-18, AS-19: S256 only, a well-formed challenge, for every client. */
function checkPkce(params: Params): string {
  const challenge = params.get('code_challenge');
  if (!challenge) throw local(new InvalidRequest('code_challenge is required (PKCE with S256)'));
  const method = params.get('code_challenge_method');
  if (method !== 'S256') throw local(new InvalidRequest('code_challenge_method must be S256'));
  if (!CHALLENGE.test(challenge)) throw local(new InvalidRequest('code_challenge must be 43 characters of base64url'));
  return challenge;
}

export async function trustedTarget(ctx: AppContext, params: Params): Promise<Target & { codeChallenge: string }> {
  const client = await checkClient(ctx, params);
  const redirectUri = checkRedirectUri(client, params);
  const codeChallenge = checkPkce(params);
  return { client, redirectUri, state: params.get('state'), codeChallenge };
}

/** AS-10: only the code flow. */
function checkResponseType(params: Params): void {
  const type = params.get('response_type');
  if (type === undefined) throw new InvalidRequest('response_type is required');
  if (type !== 'code') throw new UnsupportedResponseType('Only response_type=code is supported');
}

/** P11: identity scopes are dropped; mcp is the default; nothing beyond what the client registered. */
function checkScope(client: OAuthClient, params: Params): string {
  const asked = (params.get('scope') ?? '').split(' ').filter((s) => s && !DROPPED_SCOPES.has(s));
  const scopes = asked.length ? [...new Set(asked)] : ['mcp'];
  const allowed = new Set(client.scope.split(' '));
  const refused = scopes.find((s) => !allowed.has(s));
  if (refused) throw new InvalidScope(`scope ${refused} is not available to this client`);
  if (!scopes.includes('mcp')) throw new InvalidScope('scope must include mcp');
  return scopes.join(' ');
}

/** RFC 8707 / AS-54: the canonical resource, or invalid_target; none given means the canonical one. */
function checkResource(ctx: AppContext, params: Params): string {
  const sent = params.get('resource');
  if (sent === undefined) return canonicalResource(ctx.config);
  const canonical = canonicalizeResource(ctx.config, sent);
  if (!canonical) throw new InvalidTarget('resource must be the MCP endpoint of this server');
  return canonical;
}

export function otherChecks(ctx: AppContext, target: Target, params: Params): { scope: string; resource: string } {
  checkResponseType(params);
  return { scope: checkScope(target.client, params), resource: checkResource(ctx, params) };
}
