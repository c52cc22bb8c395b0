// Identity's HTTP surface: sign-in page, start paths, callbacks, welcome, account, sign-out, and
// (development) the demo identity provider. Refusals are rendered in one place (the refusal page).
import { Hono, type Context } from 'hono';
import type { AppContext, AppEnv } from '../http/context.ts';
import { findOrganizationByDomain, findOrganizationRecord, licenseIsActive } from '../store/organizations.ts';
import type { IdentityService } from './browser-identity.ts';
import { emailDomain } from './email-policy.ts';
import { accountPage, trialExpiredPage, welcomePage } from './pages/account.ts';
import { refusalPage } from './pages/refusal.ts';
import { signInPage } from './pages/sign-in.ts';
import { providerRegistry } from './providers/registry.ts';
import type { ProviderSetup } from './providers/types.ts';
import { SignInRefused } from './refusal.ts';
import { safeReturnTo, safeSignupSource } from './return-to.ts';
import { limitSignInStarts } from './rate-limit.ts';
import { deleteSession } from './sessions.ts';
import { finishSignIn, startSignIn } from './sign-in-flow.ts';

export async function identityRoutes(ctx: AppContext, identity: IdentityService): Promise<Hono<AppEnv>> {
  const app = new Hono<AppEnv>();
  const providers = providerRegistry(ctx);
  const mcpUrl = `${ctx.config.baseUrl}/mcp`;
  const available = { google: providers.google() !== null, microsoft: providers.microsoft() !== null };

  const refused = (c: Context, error: unknown, returnTo: string | null) => {
    if (!(error instanceof SignInRefused)) throw error;
    c.get('log').info({ reason: error.reason, cause: error.cause instanceof Error ? error.cause.message : undefined }, 'sign-in refused');
    return refusalPage(c, error, error.returnTo ?? returnTo);
  };

  const start = (kind: 'google' | 'microsoft', pick: () => ProviderSetup | null) => async (c: Context<AppEnv>) => {
    const returnTo = safeReturnTo(c.req.query('return_to'));
    try {
      const setup = pick();
      if (!setup) throw new SignInRefused('provider_unavailable', `Sign-in with ${kind === 'google' ? 'Google' : 'Microsoft'} is not configured on this server.`, { status: 404 });
      return await startSignIn(ctx, identity, c, setup, { returnTo, signupSource: safeSignupSource(c.req.query('source')), ssoOrgId: null });
    } catch (error) {
      return refused(c, error, returnTo);
    }
  };

  const limit = limitSignInStarts(ctx);
  for (const path of ['/login_google/', '/login_ms/', '/login_sso/']) app.use(path, limit);

  app.get('/signin', async (c) => {
    const user = await identity.currentUser(c);
    return signInPage(c, { returnTo: safeReturnTo(c.req.query('return_to')), demo: ctx.config.demoIdp, available, allowHttpIssuers: ctx.config.env === 'development', signedInAs: user?.email ?? null });
  });

  app.get('/login_google/', start('google', () => providers.google()));
  app.get('/login_ms/', start('microsoft', () => providers.microsoft()));
  app.get('/login_google', (c) => c.redirect(`/login_google/${new URL(c.req.url).search}`, 301));
  app.get('/login_ms', (c) => c.redirect(`/login_ms/${new URL(c.req.url).search}`, 301));

  app.get('/login_sso/', async (c) => {
    const returnTo = safeReturnTo(c.req.query('return_to'));
    const domain = emailDomain(c.req.query('email'));
    if (!domain) return signInPage(c, { returnTo, demo: ctx.config.demoIdp, available, allowHttpIssuers: ctx.config.env === 'development', signedInAs: null, error: 'Enter your work email address to use single sign-on.', status: 400 });
    try {
      const org = await findOrganizationByDomain(ctx.store.db, domain);
      const setup = org && org.settings.sso?.domains.includes(domain) ? providers.sso(org) : null;
      if (!org || !setup) {
        throw new SignInRefused('no_sso', `No organization has set up single sign-on for ${domain}. Sign in with Google or Microsoft instead.`, { status: 404 });
      }
      return await startSignIn(ctx, identity, c, setup, { returnTo, signupSource: safeSignupSource(c.req.query('source')), ssoOrgId: org.id });
    } catch (error) {
      return refused(c, error, returnTo);
    }
  });
  app.get('/login_sso', (c) => c.redirect(`/login_sso/${new URL(c.req.url).search}`, 301));

  for (const [kind, path] of [['google', '/login_google/callback'], ['microsoft', '/login_ms/callback'], ['sso', '/login_sso/callback']] as const) {
    app.get(path, async (c) => {
      try {
        return await finishSignIn(ctx, identity, providers, c, kind);
      } catch (error) {
        return refused(c, error, null);
      }
    });
  }

  app.get('/welcome', async (c) => {
    const s = await identity.session(c);
    if (!s) return c.redirect(identity.signInUrl('/welcome'), 302);
    const org = await findOrganizationRecord(ctx.store.db, s.user.orgId);
    if (!org) return c.redirect('/signin', 302);
    if (!licenseIsActive(org.license)) return trialExpiredPage(c, org);
    return welcomePage(c, s.user, org, mcpUrl, c.req.query('new') === 'organization');
  });

  app.get('/account', async (c) => {
    const s = await identity.session(c);
    if (!s) return c.redirect(identity.signInUrl('/account'), 302);
    const org = await findOrganizationRecord(ctx.store.db, s.user.orgId);
    if (!org) return c.redirect('/signin', 302);
    return accountPage(c, s.user, org, await identity.issueCsrfToken(c, 'signout'));
  });

  app.post('/signout', async (c) => {
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const token = typeof body.csrf_token === 'string' ? body.csrf_token : '';
    if (!(await identity.verifyCsrfToken(c, 'signout', token))) {
      return c.html('<!doctype html><title>Expired form</title><h1>This form has expired</h1><p><a href="/account">Back to your account</a></p>', 403);
    }
    await deleteSession(ctx.store.db, ctx.config.secrets.hash, identity.cookies.get(c, 'session'));
    identity.cookies.clear(c, 'session');
    return c.redirect('/signin', 303);
  });

  // Loaded only when enabled: the demo IdP brings oidc-provider and Koa (~15 MB of RSS, ~50 ms of
  // start), which production never runs.
  if (ctx.config.demoIdp) {
    const { demoIdpRoutes } = await import('./demo-idp/routes.ts');
    app.route('/', demoIdpRoutes(ctx, identity));
  }
  return app;
}
