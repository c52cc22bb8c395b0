// GET /oauth/authorize, then sign-in, then the consent page on our origin, then a redirect with
// code, state and iss. Order: client and redirect URI first (local 400 page on failure), other
// checks next (reported by redirect, but only once the user is authenticated, AS-11), sign-in,
// then consent before any code is issued.
import { Hono, type Context } from 'hono';
import type { AppContext, AppEnv } from '../../http/context.ts';
import type { BrowserIdentity, SignedInUser } from '../../identity/contract.ts';
import { findConsentScope, rememberConsent } from '../../store/oauth-consents.ts';
import { now } from '../../store/ids.ts';
import type { OAuthClient } from '../../store/oauth-clients.ts';
import { audit } from '../audit.ts';
import { issueAuthorizationCode } from '../codes.ts';
import { AccessDenied, InvalidRequest, OAuthError } from '../errors.ts';
import { formParams, singleValued, type Params } from '../http/params.ts';
import { renderConsentPage } from './consent-page.ts';
import { consumePending, loadPending, resumePath, savePending, type PendingRequest } from './pending.ts';
import { loadClient, LocalProblem, otherChecks, trustedTarget } from './request.ts';
import { localErrorPage, redirectTo } from './respond.ts';

type Approvable = Extract<PendingRequest, { kind: 'request' }>;

const csrfPurpose = (handle: string) => `consent:${handle}`;
const isSubset = (asked: string, granted: string) => {
  const g = new Set(granted.split(' '));
  return asked.split(' ').every((s) => g.has(s));
};

export function authorizeRoutes(ctx: AppContext, identity: BrowserIdentity): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = ctx;

  const issueCode = async (user: SignedInUser, p: Approvable) => {
    const code = await issueAuthorizationCode(ctx, {
      clientId: p.clientId,
      redirectUri: p.redirectUri,
      codeChallenge: p.codeChallenge,
      scope: p.scope,
      resource: p.resource,
      orgId: user.orgId,
      userId: user.userId,
      sessionId: user.sessionId,
    });
    return redirectTo(config, p.redirectUri, { code }, p.state);
  };

  const remembersConsent = async (user: SignedInUser, client: OAuthClient, p: Approvable) => {
    // AS-35: silent re-approval only for the same user, client, redirect URI, resource and a scope subset.
    const key = { orgId: user.orgId, userId: user.userId, clientId: client.clientId, redirectUri: p.redirectUri, resource: p.resource };
    const remembered = await findConsentScope(ctx.store.db, key);
    return remembered !== undefined && isSubset(p.scope, remembered);
  };

  /**
   * For a signed-in user: deliver the request's error, re-approve silently, or ask. The client is
   * loaded only for a request to approve. `stored` is the handle of a request resumed from storage,
   * consumed once before any redirect; a fresh request is stored only when the consent form needs a handle.
   */
  const proceed = async (c: Context<AppEnv>, user: SignedInUser, pending: PendingRequest, client: () => Promise<OAuthClient>, stored?: string) => {
    const once = async () => stored === undefined || (await consumePending(ctx, stored));
    if (pending.kind === 'error') {
      if (!(await once())) return localErrorPage(c, new InvalidRequest('This authorization request has already been completed'));
      return c.redirect(redirectTo(config, pending.redirectUri, { error: pending.error, error_description: pending.description }, pending.state), 302);
    }
    const found = await client();
    if ((await remembersConsent(user, found, pending)) && (await once())) return c.redirect(await issueCode(user, pending), 302);
    const handle = stored ?? (await savePending(ctx, pending));
    const csrf = await identity.issueCsrfToken(c, csrfPurpose(handle));
    return renderConsentPage(c, { user, client: found, pending, handle, csrf });
  };

  app.get('/oauth/authorize', async (c) => {
    c.header('Cache-Control', 'no-store');
    let params: Params;
    let target;
    try {
      params = singleValued(new URL(c.req.url).searchParams);
      target = await trustedTarget(ctx, params);
    } catch (error) {
      if (error instanceof LocalProblem) return localErrorPage(c, error.error);
      if (error instanceof OAuthError) return localErrorPage(c, error);
      throw error;
    }
    const common = { clientId: target.client.clientId, redirectUri: target.redirectUri, state: target.state };
    let pending: PendingRequest;
    try {
      pending = { kind: 'request', ...common, codeChallenge: target.codeChallenge, ...otherChecks(ctx, target, params) };
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      pending = { kind: 'error', ...common, error: error.code, description: error.message };
    }
    const user = await identity.currentUser(c);
    // AS-11: sign in first, carrying only an opaque handle to the stored request (AS-30).
    if (!user) return c.redirect(identity.signInUrl(resumePath(await savePending(ctx, pending))), 302);
    const { client } = target;
    return proceed(c, user, pending, async () => client);
  });

  // Where sign-in returns the browser: the request is re-loaded from the server by its handle.
  app.get('/oauth/consent', async (c) => {
    c.header('Cache-Control', 'no-store');
    const handle = c.req.query('request') ?? '';
    const pending = await loadPending(ctx, handle);
    if (!pending) return localErrorPage(c, new InvalidRequest('This authorization request has expired or was already completed; start again from the application'));
    const user = await identity.currentUser(c);
    if (!user) return c.redirect(identity.signInUrl(resumePath(handle)), 302);
    try {
      return await proceed(c, user, pending, () => loadClient(ctx, pending.clientId), handle);
    } catch (error) {
      if (error instanceof LocalProblem) return localErrorPage(c, error.error);
      throw error;
    }
  });

  app.post('/oauth/consent', async (c) => {
    c.header('Cache-Control', 'no-store');
    let form: Params;
    try {
      form = await formParams(c);
    } catch (error) {
      if (error instanceof OAuthError) return localErrorPage(c, error);
      throw error;
    }
    const handle = form.get('request') ?? '';
    const pending = await loadPending(ctx, handle);
    if (!pending || pending.kind !== 'request') return localErrorPage(c, new InvalidRequest('This authorization request has expired or was already completed'));
    const user = await identity.currentUser(c);
    // AS-13: 303 after a form POST, never 307.
    if (!user) return c.redirect(identity.signInUrl(resumePath(handle)), 303);
    if (!(await identity.verifyCsrfToken(c, csrfPurpose(handle), form.get('csrf_token') ?? ''))) {
      return localErrorPage(c, new InvalidRequest('The form has expired; go back and try again'));
    }
    // The client may have been removed (the abandoned-client job) while the page was open: then no
    // code is issued, no consent remembered, and nothing is sent to its redirect URI (AS-3).
    try {
      await loadClient(ctx, pending.clientId);
    } catch (error) {
      if (error instanceof LocalProblem) return localErrorPage(c, error.error);
      throw error;
    }
    if (!(await consumePending(ctx, handle))) return localErrorPage(c, new InvalidRequest('This authorization request was already completed'));
    const who = { orgId: user.orgId, userId: user.userId, clientId: pending.clientId };
    if (form.get('decision') !== 'approve') {
      await audit(ctx, c, { kind: 'consent_denied', ...who });
      // AS-32: access_denied with state and iss, to the validated redirect URI only.
      const denied = new AccessDenied('The user denied the request');
      return c.redirect(redirectTo(config, pending.redirectUri, { error: denied.code, error_description: denied.message }, pending.state), 303);
    }
    await rememberConsent(ctx.store.db, { ...who, redirectUri: pending.redirectUri, resource: pending.resource }, pending.scope, now());
    await audit(ctx, c, { kind: 'consent_granted', ...who, detail: { scope: pending.scope, redirect_host: new URL(pending.redirectUri).host } });
    return c.redirect(await issueCode(user, pending), 303);
  });

  return app;
}
