// The upstream leg as two steps: start (remember state, nonce and PKCE verifier against this
// browser, then redirect) and finish (consume that record once, exchange the code, check the
// claims, resolve the user, start a session).
import type { Context } from 'hono';
import type { AppContext } from '../http/context.ts';
import { findOrganizationRecord, licenseIsActive } from '../store/organizations.ts';
import type { IdentityService } from './browser-identity.ts';
import { trialExpiredPage } from './pages/account.ts';
import { CALLBACK_PATHS, type Providers } from './providers/registry.ts';
import type { ProviderSetup } from './providers/types.ts';
import { SignInRefused } from './refusal.ts';
import type { UpstreamProviderKind } from './schema.ts';
import { createSession, deleteSession } from './sessions.ts';
import { SESSION_TTL_MS } from './defaults.ts';
import { resolveUser } from './signup.ts';
import { consumeLoginState, saveLoginState, type LoginState } from './upstream/login-states.ts';
import { beginAuthorization, completeAuthorization } from './upstream/relying-party.ts';

export type StartOptions = { returnTo: string | null; signupSource: string | null; ssoOrgId: string | null };

export async function startSignIn(ctx: AppContext, identity: IdentityService, c: Context, setup: ProviderSetup, options: StartOptions) {
  const browser = identity.browserBinding(c);
  const auth = await beginAuthorization(setup.client, setup.redirectUri, setup.scope, setup.extraAuthParams);
  await saveLoginState(ctx.store.db, ctx.config.secrets.hash, auth.state, browser, {
    provider: setup.kind,
    ssoOrgId: options.ssoOrgId,
    codeVerifier: auth.codeVerifier,
    nonce: auth.nonce,
    returnTo: options.returnTo,
    signupSource: options.signupSource,
  });
  return c.redirect(auth.url.href, 302);
}

async function setupFor(ctx: AppContext, providers: Providers, kind: UpstreamProviderKind, ssoOrgId: string | null): Promise<ProviderSetup> {
  const setup =
    kind === 'google'
      ? providers.google()
      : kind === 'microsoft'
        ? providers.microsoft()
        : await findOrganizationRecord(ctx.store.db, ssoOrgId ?? '').then((org) => (org ? providers.sso(org) : null));
  if (!setup) throw new SignInRefused('provider_unavailable', 'This sign-in method is no longer configured.', { status: 400 });
  return setup;
}

/** Returns the page or redirect that ends the sign-in; throws SignInRefused for the refusal page. */
export async function finishSignIn(ctx: AppContext, identity: IdentityService, providers: Providers, c: Context, kind: UpstreamProviderKind) {
  const { db } = ctx.store;
  const hashKey = ctx.config.secrets.hash;
  const state = await consumeLoginState(db, hashKey, kind, c.req.query('state'), identity.cookies.get(c, 'browser'));
  try {
    return await signInWith(ctx, identity, providers, c, kind, state);
  } catch (error) {
    if (error instanceof SignInRefused) error.returnTo = state.returnTo;
    throw error;
  }
}

async function signInWith(ctx: AppContext, identity: IdentityService, providers: Providers, c: Context, kind: UpstreamProviderKind, state: LoginState) {
  const { db } = ctx.store;
  const hashKey = ctx.config.secrets.hash;
  const setup = await setupFor(ctx, providers, kind, state.ssoOrgId);
  // The callback URL as registered, from BASE_URL (never the Host header), with the response's query.
  const callbackUrl = new URL(`${ctx.config.baseUrl}${CALLBACK_PATHS[kind]}`);
  callbackUrl.search = new URL(c.req.url).search;
  const tokens = await completeAuthorization(setup.client, callbackUrl, { state: c.req.query('state') ?? '', nonce: state.nonce, codeVerifier: state.codeVerifier });
  const upstream = setup.identify(tokens);
  const outcome = await resolveUser(db, upstream, { trialDays: ctx.config.trialDays, signupSource: state.signupSource, ssoOrgId: state.ssoOrgId });
  c.get('log').info({ provider: kind, userId: outcome.user.id, orgId: outcome.user.orgId, created: outcome.created }, 'signed in');

  // A new session id at every sign-in (no fixation); the previous one, if any, ends.
  await deleteSession(db, hashKey, identity.cookies.get(c, 'session'));
  const session = await createSession(db, hashKey, outcome.user, upstream.issuer);
  identity.cookies.set(c, 'session', session.id, Math.floor(SESSION_TTL_MS / 1000));

  const org = await findOrganizationRecord(db, outcome.user.orgId);
  if (!org) throw new Error('organization of a signed-in user is missing');
  if (!licenseIsActive(org.license)) return trialExpiredPage(c, org);
  if (state.returnTo) return c.redirect(state.returnTo, 302);
  return c.redirect(outcome.created === 'organization' ? '/welcome?new=organization' : '/welcome', 302);
}
