// The relying party for every upstream provider, on openid-client: authorization code + PKCE (S256)
// + state + nonce. openid-client validates the authorization response (state, RFC 9207 `iss`) and
// the ID token (signature, `iss`, `aud`, `exp`, `nonce`): AS-77. Failures become SignInRefused with
// a reason naming the failed check.
import * as oidc from 'openid-client';
import { DISCOVERY_TTL_MS } from '../defaults.ts';
import { SignInRefused, type RefusalReason } from '../refusal.ts';
import { randomToken } from '../secrets.ts';

export type UpstreamClient = {
  /** Where discovery starts (for Microsoft: the `organizations` authority, whose issuer is a template). */
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** Development only: allow http issuers (the demo provider on http://localhost). */
  allowHttp: boolean;
  /** An outside-service stand-in for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
};

export type Authorization = { url: URL; state: string; nonce: string; codeVerifier: string };

export type ValidatedTokens = { claims: oidc.IDToken; serverIssuer: string };

type Cached = { at: number; config: Promise<oidc.Configuration> };
const discoveries = new Map<string, Cached>();

function configuration(client: UpstreamClient): Promise<oidc.Configuration> {
  const key = `${client.discoveryUrl}\0${client.clientId}\0${client.clientSecret}`;
  const hit = discoveries.get(key);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS && !client.fetch) return hit.config;
  const options: oidc.DiscoveryRequestOptions = { timeout: 10 };
  if (client.allowHttp) options.execute = [oidc.allowInsecureRequests];
  if (client.fetch) options[oidc.customFetch] = client.fetch;
  const config = oidc.discovery(new URL(client.discoveryUrl), client.clientId, client.clientSecret, oidc.ClientSecretPost(client.clientSecret), options);
  config.then(
    (c) => {
      if (client.fetch) c[oidc.customFetch] = client.fetch;
    },
    () => discoveries.delete(key),
  );
  discoveries.set(key, { at: Date.now(), config });
  return config;
}

async function configured(client: UpstreamClient): Promise<oidc.Configuration> {
  try {
    return await configuration(client);
  } catch (cause) {
    throw new SignInRefused('provider_unavailable', 'The sign-in provider could not be reached. Try again in a moment.', { status: 502, cause });
  }
}

export async function beginAuthorization(
  client: UpstreamClient,
  redirectUri: string,
  scope: string,
  extra: Record<string, string> = {},
): Promise<Authorization> {
  const config = await configured(client);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = randomToken();
  const nonce = randomToken();
  const url = oidc.buildAuthorizationUrl(config, {
    ...extra,
    redirect_uri: redirectUri,
    scope,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, state, nonce, codeVerifier };
}

/** Exchanges the code and validates the ID token; `callbackUrl` is built from BASE_URL, never the Host header. */
export async function completeAuthorization(
  client: UpstreamClient,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<ValidatedTokens> {
  const config = await configured(client);
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw classify(error);
  }
  const claims = tokens.claims();
  if (!claims) throw new SignInRefused('id_token_invalid', 'The sign-in provider returned no ID token.', { status: 502 });
  return { claims, serverIssuer: config.serverMetadata().issuer };
}

const CLAIM_REASONS: Record<string, RefusalReason> = { iss: 'id_token_iss', aud: 'id_token_aud', exp: 'id_token_exp', nonce: 'id_token_nonce' };

function classify(error: unknown): SignInRefused {
  if (error instanceof SignInRefused) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const claim = failedClaim(error);
  if ((code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' || code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') && CLAIM_REASONS[claim]) {
    const reason = CLAIM_REASONS[claim] as RefusalReason;
    return new SignInRefused(reason, `The sign-in provider's ID token failed the "${claim}" check, so it was not accepted.`, { status: 401, cause: error });
  }
  if (code === 'OAUTH_AUTHORIZATION_RESPONSE_ERROR') {
    return new SignInRefused('upstream_error', 'The sign-in provider did not complete the sign-in (it was cancelled or refused).', { status: 400, cause: error });
  }
  return new SignInRefused('id_token_invalid', 'The sign-in provider\'s response could not be verified, so it was not accepted.', { status: 401, cause: error });
}

/** openid-client wraps oauth4webapi's error, whose `cause` names the claim that failed. */
function failedClaim(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if ('claim' in current && typeof current.claim === 'string') return current.claim;
    current = 'cause' in current ? current.cause : undefined;
  }
  return '';
}
